import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { queryBool, queryId } from '../common/query.ts';
import { TASK_TYPES } from '../tasks/task-titles.ts';
import { PortalEventSchema } from './inbox-count.schemas.ts';

/**
 * The notification centre (issue 40): the events that concern a user, kept on the server per
 * user with their read state, shown behind the bell in the header.
 */

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
  task: z.object({ id: z.number().int(), type: z.enum(TASK_TYPES), subject: z.string() }).nullable(),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;
export const InboxListResponseSchema = pageOf(InboxItemSchema);
export type InboxListResponse = z.infer<typeof InboxListResponseSchema>;

export const InboxItemParamsSchema = z.object({ id: queryId }).strict();

/** POST /api/v0/notifications/inbox/read_all/ */
export const InboxReadAllSchema = z
  .object({
    /** The newest item id the user saw: items after it (arrived meanwhile) stay unread. */
    up_to: z.number().int().nonnegative(),
  })
  .strict();
export type InboxReadAll = z.infer<typeof InboxReadAllSchema>;
