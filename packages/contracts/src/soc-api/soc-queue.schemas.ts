import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { csvList, queryBool, queryId } from '../common/query.ts';
import { IncidentCardSchema } from '../incidents/incident-card.schemas.ts';
import {
  INCIDENTS_PAGE_SIZE,
  IncidentPrioritySchema,
  IncidentStatusSchema,
  OptionSchema,
  SystemOptionSchema,
  UserRefSchema,
} from '../incidents/incidents.schemas.ts';

/** The statuses in which an incident can wait for the SOC (the workflow's open ones). */
export const QUEUE_STATUSES = ['waiting_for_customer', 'waiting_for_support', 'work_in_progress'] as const;

/** An unregistered incident's SLA deadline is near within this many milliseconds. */
export const SLA_NEAR_MS = 60 * 60 * 1000;

/**
 * Why an incident waits for the SOC: its status is Waiting for support; it was reopened and not
 * yet answered; a customer's comment is newer than the SOC's last one; its SLA deadline is near
 * or passed while it is not registered; it has no SOC assignee.
 */
export const QUEUE_REASONS = [
  'waiting_for_support',
  'reopened',
  'customer_comment',
  'sla_near',
  'sla_breached',
  'unassigned',
] as const;
export const QueueReasonSchema = z.enum(QUEUE_REASONS);
export type QueueReason = z.infer<typeof QueueReasonSchema>;

/** ok: the deadline is more than an hour away, met, or none; near: within the hour; breached: passed. */
export const SLA_STATES = ['ok', 'near', 'breached'] as const;
export const SlaStateSchema = z.enum(SLA_STATES);
export type SlaState = z.infer<typeof SlaStateSchema>;

export const QUEUE_ORDERINGS = [
  'sla',
  '-sla',
  'priority',
  '-priority',
  'created',
  '-created',
  'updated',
  '-updated',
] as const;
/** `sla` (default): deadline first, none last; `-priority`: critical first. */
export const QueueOrderingSchema = z.enum(QUEUE_ORDERINGS);
export type QueueOrdering = z.infer<typeof QueueOrderingSchema>;

/** The filters of the queue (design §4 grammar); unknown parameters are refused. */
export const QueueFiltersShape = {
  /** Tenants (systems). */
  system__in: csvList(queryId).optional(),
  priority__in: csvList(IncidentPrioritySchema).optional(),
  status__in: csvList(z.enum(QUEUE_STATUSES)).optional(),
  /** Main category ids. */
  category__in: csvList(queryId).optional(),
  /** SOC assignees' user ids. */
  soc_assignee__in: csvList(queryId).optional(),
  /** `true`: without a SOC assignee only. */
  soc_assignee__isnull: queryBool.optional(),
  /** `true`: assigned to the caller only. */
  mine: queryBool.optional(),
  sla_state__in: csvList(SlaStateSchema).optional(),
  reason__in: csvList(QueueReasonSchema).optional(),
};

/** GET /analyst/queue/: limit/offset as the incident list. */
export const QueueListQuerySchema = z.strictObject({
  ...QueueFiltersShape,
  ordering: QueueOrderingSchema.default('sla'),
  limit: z.coerce.number().int().min(1).max(100).default(INCIDENTS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type QueueListQuery = z.infer<typeof QueueListQuerySchema>;

/** GET /analyst/queue/counts/: the same filters, counted per tenant. */
export const QueueCountsQuerySchema = z.strictObject(QueueFiltersShape);
export type QueueCountsQuery = z.infer<typeof QueueCountsQuerySchema>;

/** One incident waiting for the SOC. */
export const QueueItemSchema = z.object({
  key: z.number().int(),
  summary: z.string(),
  priority: IncidentPrioritySchema,
  status: IncidentStatusSchema,
  system: SystemOptionSchema,
  category_ref: z.array(OptionSchema),
  /** Millisecond timestamps. */
  created: z.number().int(),
  updated: z.number().int(),
  sla: z.number().int().nullable(),
  sla_state: SlaStateSchema,
  /** When the customer was notified; null while not yet. */
  notified: z.number().int().nullable(),
  soc_assignee: UserRefSchema.nullable(),
  /** Since when a customer's comment waits for the SOC's answer. */
  customer_comment_at: z.number().int().nullable(),
  /** Why it waits, in the order of QUEUE_REASONS; never empty. */
  reasons: z.array(QueueReasonSchema).min(1),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const QueueListResponseSchema = pageOf(QueueItemSchema);
export type QueueListResponse = z.infer<typeof QueueListResponseSchema>;

export const QueueCountsSchema = z.object({
  /** Incidents that wait, per tenant with at least one, most first. */
  results: z.array(z.object({ system: SystemOptionSchema, count: z.number().int().nonnegative() })),
  total: z.number().int().nonnegative(),
});
export type QueueCounts = z.infer<typeof QueueCountsSchema>;

/** Incidents a bulk change takes at most. */
export const QUEUE_BULK_MAX = 100;
const bulkKeys = z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(QUEUE_BULK_MAX);

/** POST /analyst/queue/bulk/: one change applied to each incident as its single-incident call would. */
export const QueueBulkSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('assign'),
    keys: bulkKeys,
    /** A staff user's id, or null to unassign. */
    soc_assignee: z.number().int().positive().nullable(),
  }),
  z.strictObject({ action: z.literal('priority'), keys: bulkKeys, priority: IncidentPrioritySchema }),
  z.strictObject({
    action: z.literal('status'),
    keys: bulkKeys,
    status: z.enum(['completed', 'canceled']),
    /** Markdown; shown in each chat as the SOC's comment. */
    comment: z.string().trim().min(1).max(20_000),
  }),
]);
export type QueueBulk = z.input<typeof QueueBulkSchema>;

export const QueueBulkResultSchema = z.object({
  results: z.array(
    z.object({
      key: z.number().int(),
      /** The HTTP status the single-incident call would have answered (200, 400, 404). */
      status: z.number().int(),
      /** The incident's status after the change (200 only). */
      incident_status: IncidentStatusSchema.nullable(),
      /** Why it was refused: the field errors or `{detail}` of that answer. */
      errors: z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullable(),
    }),
  ),
});
export type QueueBulkResult = z.infer<typeof QueueBulkResultSchema>;

/** The analyst API's incident answer: the customer's card and the SOC assignee (staff only). */
export const AnalystIncidentCardSchema = IncidentCardSchema.extend({
  soc_assignee: UserRefSchema.nullable(),
});
export type AnalystIncidentCard = z.infer<typeof AnalystIncidentCardSchema>;

/** GET /analyst/staff/: the provider's staff (roles analyst and admin) to assign incidents to. */
export const StaffListQuerySchema = z.strictObject({
  /** Part of the username or the name, case-insensitive. */
  search: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type StaffListQuery = z.infer<typeof StaffListQuerySchema>;
export const StaffListResponseSchema = pageOf(UserRefSchema);
export type StaffListResponse = z.infer<typeof StaffListResponseSchema>;
