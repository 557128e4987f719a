import { z } from 'zod';
import { IocTypeSchema } from '../incidents/incident-card.schemas.ts';
import { INCIDENT_STATUSES } from '../incidents/incidents.schemas.ts';
import { csvList, queryId, queryMillis } from '../common/query.ts';

/** The path of the IOC feed (issue 29 §3), under API_BASE. */
export const IOC_FEED_PATH = '/soc/iocs/feed/';

/**
 * What the feed answers: a STIX 2.1 bundle of `indicator` objects, CSV with a header line, or
 * plain text with one value per line (what firewalls and EDRs import).
 */
export const IOC_FEED_FORMATS = ['stix', 'csv', 'txt'] as const;
export const IocFeedFormatSchema = z.enum(IOC_FEED_FORMATS);
export type IocFeedFormat = z.infer<typeof IocFeedFormatSchema>;

/** Content types of the formats. */
export const IOC_FEED_CONTENT_TYPES: Record<IocFeedFormat, string> = {
  stix: 'application/stix+json;version=2.1',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** Most indicators on one page of the feed, and the default page size. */
export const IOC_FEED_LIMIT_MAX = 10_000;
export const IOC_FEED_LIMIT_DEFAULT = 5_000;

/** `since`: a millisecond timestamp or an ISO 8601 date-time. */
const since = z.union([
  queryMillis,
  z.iso
    .datetime({ offset: true, error: 'Enter a millisecond timestamp or an ISO 8601 date-time.' })
    .transform((v) => Date.parse(v)),
]);

/**
 * GET /soc/iocs/feed/: the IOCs observed in the incidents of the caller's systems. Filters narrow
 * the incidents the IOCs come from; unknown parameters are refused (design §4).
 */
export const IocFeedQuerySchema = z.strictObject({
  format: IocFeedFormatSchema.default('stix'),
  /** IOC types, e.g. `ipv4,ipv6`. */
  ioc_type__in: csvList(IocTypeSchema).optional(),
  /** System (tenant) ids among the caller's; another's gives an empty feed. */
  system__in: csvList(queryId).optional(),
  /** Statuses of the incidents the IOCs were observed in. */
  status__in: csvList(z.enum(INCIDENT_STATUSES)).optional(),
  /** Only IOCs of incidents created at or after this time. */
  since: since.optional(),
  /** Indicators on a page (the next page's URL is in the `Link` header, `rel="next"`). */
  limit: z.coerce.number().int().min(1).max(IOC_FEED_LIMIT_MAX).default(IOC_FEED_LIMIT_DEFAULT),
  /** Opaque position from a previous page's `Link` header. */
  cursor: z.string().max(4096).optional(),
  language: z.enum(['ru', 'en']).optional(),
});
export type IocFeedQuery = z.infer<typeof IocFeedQuerySchema>;
export type IocFeedQueryInput = z.input<typeof IocFeedQuerySchema>;

/** The fields of a feed's STIX indicator that the portal's preview shows. */
export const IocFeedIndicatorSchema = z.object({
  id: z.string(),
  name: z.string(),
  pattern: z.string(),
  labels: z.array(z.string()),
  valid_from: z.string(),
  x_soc_system_id: z.number().int(),
  x_soc_incident_count: z.number().int(),
});
export type IocFeedIndicator = z.infer<typeof IocFeedIndicatorSchema>;

/** `format=stix`: a STIX 2.1 bundle (the preview reads the indicators' fields above). */
export const IocFeedBundleSchema = z.object({
  type: z.literal('bundle'),
  id: z.string(),
  objects: z.array(IocFeedIndicatorSchema),
});
export type IocFeedBundle = z.infer<typeof IocFeedBundleSchema>;

/** Indicators the portal's page previews. */
export const IOC_FEED_PREVIEW_SIZE = 20;
