import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { queryBool, queryId } from '../common/query.ts';
import { TaskTypeSchema } from '../tasks/tasks.schemas.ts';

/**
 * The notification centre (issue 40): the events that concern a user, kept on the server per
 * user with their read state, shown behind the bell in the header.
 */

/** Kinds of the portal's notifications, each of which the user may turn off. */
export const PORTAL_EVENTS = [
  /** A new incident on one of the user's systems (not one they registered themselves). */
  'incident_created',
  /** The status of an incident the user follows changed. */
  'status_changed',
  /** Someone else (the SOC or a colleague) commented on an incident the user follows. */
  'comment',
  /** A report the user ordered is ready. */
  'report_ready',
  /** The SOC answered in the chat of a request (task) the user opened. */
  'task_answer',
] as const;
export const PortalEventSchema = z.enum(PORTAL_EVENTS);
export type PortalEvent = z.infer<typeof PortalEventSchema>;

/** Inbox items come in pages of this many. */
export const INBOX_PAGE_SIZE = 20;

/** GET /api/v0/notifications/inbox/ */
export const InboxListQuerySchema = z
  .object({
    /** Only the unread items. */
    unread: queryBool.optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(INBOX_PAGE_SIZE).default(INBOX_PAGE_SIZE),
  })
  .strict();
export type InboxListQuery = z.infer<typeof InboxListQuerySchema>;

/** One line of the notification centre, with what its link needs. */
export const InboxItemSchema = z.object({
  id: z.number().int(),
  kind: PortalEventSchema,
  /** Millisecond timestamp of the event. */
  created: z.number().int(),
  read: z.boolean(),
  /** The incident (incident_created, status_changed, comment); summary as it is now. */
  incident: z.object({ key: z.number().int(), summary: z.string() }).nullable(),
  /** The incident's status the change led to (status_changed). */
  status: z.string().nullable(),
  /** The report (report_ready). */
  report: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The request (task_answer). */
  task: z.object({ id: z.number().int(), type: TaskTypeSchema, subject: z.string() }).nullable(),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;
export const InboxListResponseSchema = pageOf(InboxItemSchema);
export type InboxListResponse = z.infer<typeof InboxListResponseSchema>;

/** GET /api/v0/notifications/inbox/count/: the bell's number. */
export const InboxCountSchema = z.object({
  /** Unread items, counted up to TOTAL_COUNT_CAP. */
  unread: z.number().int().nonnegative(),
  /** False when counting stopped at the cap: there are more than `unread`. */
  unread_exact: z.boolean(),
});
export type InboxCount = z.infer<typeof InboxCountSchema>;

export const InboxItemParamsSchema = z.object({ id: queryId }).strict();

/** POST /api/v0/notifications/inbox/read_all/ */
export const InboxReadAllSchema = z
  .object({
    /** The newest item id the user saw: items after it (arrived meanwhile) stay unread. */
    up_to: z.number().int().nonnegative(),
  })
  .strict();
export type InboxReadAll = z.infer<typeof InboxReadAllSchema>;

/** POST …/inbox/{id}/read/ and …/inbox/read_all/: how many items are still unread afterwards. */
export const InboxReadResponseSchema = InboxCountSchema;

/** The server-sent event that tells a user's open tabs to refresh the bell (no id: never replayed). */
export const INBOX_UPDATED_EVENT = 'inbox.updated';
