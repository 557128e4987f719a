import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { csvList, queryId, searchText } from '../common/query.ts';
import { SystemOptionSchema } from '../incidents/incidents.schemas.ts';

/**
 * Log sources (product §B2: the screens are ours to design). A source is `disabled` when
 * switched off, `silent` when enabled but quiet for longer than its threshold, else `active`.
 */
export const LOG_SOURCE_STATUSES = ['active', 'silent', 'disabled'] as const;
export const LogSourceStatusSchema = z.enum(LOG_SOURCE_STATUSES);
export type LogSourceStatus = z.infer<typeof LogSourceStatusSchema>;

/** Tabs of /log-sources/{tab}: all sources, or those of one status. */
export const LOG_SOURCE_TABS = ['total', ...LOG_SOURCE_STATUSES] as const;
export type LogSourceTab = (typeof LOG_SOURCE_TABS)[number];

/** The spec's known call asks for 100 at a time (product §A9). */
export const LOG_SOURCES_PAGE_SIZE = 100;

export const LOG_SOURCE_ORDERINGS = [
  'name',
  '-name',
  'last_event',
  '-last_event',
  'source_type',
  '-source_type',
] as const;
export const LogSourceOrderingSchema = z.enum(LOG_SOURCE_ORDERINGS);
export type LogSourceOrdering = z.infer<typeof LogSourceOrderingSchema>;

const filters = {
  /** Name or host contains. */
  search: searchText.optional(),
  source_type__in: csvList(z.string().max(100)).optional(),
  status__in: csvList(LogSourceStatusSchema).optional(),
  system__in: csvList(queryId).optional(),
};

/** GET /soc/logsources/ */
export const LogSourceListQuerySchema = z.strictObject({
  ...filters,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(LOG_SOURCES_PAGE_SIZE),
  ordering: LogSourceOrderingSchema.default('name'),
});
export type LogSourceListQuery = z.infer<typeof LogSourceListQuerySchema>;

export const LogSourceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  source_type: z.string(),
  host: z.string(),
  system: SystemOptionSchema,
  status: LogSourceStatusSchema,
  /** Milliseconds; null when nothing has arrived yet. */
  last_event: z.number().int().nullable(),
  silence_threshold_minutes: z.number().int(),
  /** Events per second over the last complete hour. */
  eps_last_hour: z.number(),
  /** Events per second over the last 24 complete hours. */
  eps_last_day: z.number(),
});
export type LogSource = z.infer<typeof LogSourceSchema>;
export const LogSourceListResponseSchema = pageOf(LogSourceSchema);
export type LogSourceListResponse = z.infer<typeof LogSourceListResponseSchema>;

/** GET /soc/logsources/summary/: the same filters but status; totals of the caller's sources. */
export const LogSourceSummaryQuerySchema = z.strictObject({
  search: filters.search,
  source_type__in: filters.source_type__in,
  system__in: filters.system__in,
});
export type LogSourceSummaryQuery = z.infer<typeof LogSourceSummaryQuerySchema>;

const statusCounts = {
  total: z.number().int(),
  active: z.number().int(),
  silent: z.number().int(),
  disabled: z.number().int(),
};
export const LogSourceSummarySchema = z.object({
  ...statusCounts,
  by_type: z.array(z.object({ source_type: z.string(), ...statusCounts })),
  eps_last_hour: z.number(),
  eps_last_day: z.number(),
});
export type LogSourceSummary = z.infer<typeof LogSourceSummarySchema>;
