import { z } from 'zod';

/*
 * What the header's bell and the live stream need of the notification centre (issue 40), apart
 * from the list's schemas (inbox.schemas.ts): the shell loads this module at start-up, so it
 * imports zod only.
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

/** GET /api/v0/notifications/inbox/count/: the bell's number. */
export const InboxCountSchema = z.object({
  /** Unread items, counted up to TOTAL_COUNT_CAP. */
  unread: z.number().int().nonnegative(),
  /** False when counting stopped at the cap: there are more than `unread`. */
  unread_exact: z.boolean(),
});
export type InboxCount = z.infer<typeof InboxCountSchema>;

/** POST …/inbox/{id}/read/ and …/inbox/read_all/: how many items are still unread afterwards. */
export const InboxReadResponseSchema = InboxCountSchema;

/** The server-sent event that tells a user's open tabs to refresh the bell (no id: never replayed). */
export const INBOX_UPDATED_EVENT = 'inbox.updated';
