import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { LanguageSchema, csvList, queryMillis, searchText } from '../common/query.ts';
import { PORTAL_EVENTS, PortalEventSchema } from './inbox-count.schemas.ts';

/**
 * Live updates, customer e-mail notifications and the audit log (issue 13, part B).
 */

// --- live updates (server-sent events at /api/v0/events/) -------------------------------------

/** Types of the events the stream carries. */
export const LIVE_EVENT_TYPES = [
  'incident.created',
  'incident.updated',
  'comment.created',
  'report.ready',
] as const;
export const LiveEventTypeSchema = z.enum(LIVE_EVENT_TYPES);
export type LiveEventType = z.infer<typeof LiveEventTypeSchema>;

/** Seconds a stream ticket may be used to open the stream. */
export const EVENTS_TICKET_TTL_SECONDS = 60;
/** The server writes a comment line this often, so that proxies keep the stream open. */
export const EVENTS_HEARTBEAT_MS = 20_000;
/** A client that lost the stream waits this long before it asks for a new ticket. */
export const EVENTS_RETRY_MS = 5_000;

/** POST /api/v0/events/ticket/: a short-lived ticket that opens one stream (EventSource sends no headers). */
export const EventsTicketSchema = z.object({
  /** Pass as `?ticket=` to GET /api/v0/events/; good for EVENTS_TICKET_TTL_SECONDS. */
  ticket: z.string(),
  expires_in: z.number().int().positive(),
});
export type EventsTicket = z.infer<typeof EventsTicketSchema>;

export const EventsStreamQuerySchema = z
  .object({
    ticket: z.string().min(1).max(2000),
    /** The last event id seen, for clients that reconnect by hand (EventSource sends `Last-Event-ID`). */
    last_event_id: z.coerce.number().int().min(0).optional(),
  })
  .strict();

/** The `data` of one event: what changed, never the object itself (clients refetch what they show). */
export const LiveEventSchema = z.object({
  id: z.number().int(),
  type: LiveEventTypeSchema,
  /** Incident key (incident and comment events). */
  key: z.number().int().nullable(),
  /** Report id (report.ready). */
  report_id: z.number().int().nullable(),
  /** Current status of the incident (incident events). */
  status: z.string().nullable(),
  /** The status before (incident.updated), when it changed. */
  previous_status: z.string().nullable(),
  /** Comment written by the SOC (comment.created). */
  from_soc: z.boolean().nullable(),
  /** Incident summary (incident.created), for the 'new incident' toast. */
  summary: z.string().nullable(),
  /** The account that registered the incident (incident.created); null: the SOC's systems or a deleted account. */
  reporter_id: z.number().int().nullable(),
  created: z.number().int(),
});
export type LiveEvent = z.infer<typeof LiveEventSchema>;

// --- notification preferences --------------------------------------------------------------------

/** Events a user may receive e-mail about. */
export const NOTIFICATION_EVENTS = [
  'incident_created',
  'waiting_for_customer',
  'sla_at_risk',
  'soc_comment',
  'report_ready',
] as const;
export const NotificationEventSchema = z.enum(NOTIFICATION_EVENTS);
export type NotificationEvent = z.infer<typeof NotificationEventSchema>;

/** Which incidents and reports: those assigned to (ordered by) the user, or all of the user's systems. */
export const NOTIFICATION_SCOPES = ['assigned', 'all'] as const;
export const NotificationScopeSchema = z.enum(NOTIFICATION_SCOPES);
export type NotificationScope = z.infer<typeof NotificationScopeSchema>;

/** Minutes before an unregistered incident's SLA deadline at which 'SLA at risk' mail goes out. */
export const SLA_RISK_MINUTES = 60;

/** GET/PUT /api/v0/notifications/preferences/ */
export const NotificationPreferencesSchema = z
  .object({
    /** Events that send e-mail; empty: none. */
    events: z.array(NotificationEventSchema).max(NOTIFICATION_EVENTS.length),
    scope: NotificationScopeSchema,
    /** Language of the e-mails. */
    language: LanguageSchema,
    /**
     * Events that reach the notification centre (the bell); empty: none. Left out (clients before
     * issue 40): the saved choice stays as it is.
     */
    portal_events: z.array(PortalEventSchema).max(PORTAL_EVENTS.length).optional(),
  })
  .strict();
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

export const NotificationPreferencesResponseSchema = NotificationPreferencesSchema.extend({
  portal_events: z.array(PortalEventSchema),
  /** Where the e-mails go (the account's address); empty: the account has none and gets no e-mail. */
  email: z.string(),
});
export type NotificationPreferencesResponse = z.infer<typeof NotificationPreferencesResponseSchema>;

// --- audit log -------------------------------------------------------------------------------------

/** Audit entries come in pages of this many. */
export const AUDIT_PAGE_SIZE = 50;

export const AUDIT_OBJECT_TYPES = ['incident', 'report', 'report_task', 'user', 'document'] as const;

/** GET /api/v0/audit/ and /api/v0/audit/csv/ filters. */
export const AuditFiltersSchema = z
  .object({
    /** Action names (`incident.create,auth.login`). */
    action__in: csvList(z.string().min(1).max(100)).optional(),
    object_type__in: csvList(z.string().min(1).max(50)).optional(),
    /** Object id, e.g. an incident key. */
    object_id: z.string().trim().min(1).max(100).optional(),
    /** Acting user ids. */
    user__in: csvList(z.coerce.number().int().positive()).optional(),
    /** Millisecond timestamps (inclusive). */
    at__gte: queryMillis.optional(),
    at__lte: queryMillis.optional(),
    /** The caller's address starts with this. */
    ip: z.string().trim().min(1).max(64).optional(),
    /** Part of the action, the user name or the object id. */
    search: searchText.optional(),
    language: LanguageSchema.optional(),
  })
  .strict();
export type AuditFilters = z.infer<typeof AuditFiltersSchema>;

export const AuditListQuerySchema = AuditFiltersSchema.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
}).strict();
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  /** Millisecond timestamp. */
  at: z.number().int(),
  /** The acting account; null for the system or a deleted account. */
  user: z
    .object({ id: z.number().int(), username: z.string(), full_name: z.string(), role: z.string() })
    .nullable(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  /**
   * The subject's display name (a user's name, an incident's summary, a document's title, a
   * token's name …); null when the subject was deleted, has no name, or is outside the reader's
   * systems: clients then show the kind and the id.
   */
  object_name: z.string().nullable(),
  /**
   * The caller's address; empty when a customer reads an entry of the provider's staff, a
   * staff token or the system (they see their own users' addresses only).
   */
  ip: z.string(),
  /** The caller's User-Agent; empty where `ip` is. */
  user_agent: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditListResponseSchema = pageOf(AuditEntrySchema);
export type AuditListResponse = z.infer<typeof AuditListResponseSchema>;
