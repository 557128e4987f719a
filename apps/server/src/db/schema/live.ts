import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Changes that users may want to hear about at once: new and changed incidents, new comments,
 * reports ready. Written by triggers on those tables (migration of issue 13), so every writer
 * (portal routes, the analyst API, jobs) emits them; a row trigger here publishes each through
 * `pg_notify('soc_events', …)` on commit, which every instance LISTENs to. The rows let a client
 * that reconnects catch up (`Last-Event-ID`) and feed the e-mail notifications, each event
 * claimed once (`dispatched_at`). Old rows are pruned.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    /** `incident.created`, `incident.updated`, `incident.sla_risk`, `comment.created`, `report.ready`, `task.updated`. */
    type: text('type').notNull(),
    /** Systems the object belongs to: a customer sees the event when all of them are theirs. */
    systemIds: integer('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    incidentKey: bigint('incident_key', { mode: 'number' }),
    /** The object's own id (incident uuid, comment id, report id). */
    objectId: text('object_id').notNull().default(''),
    /** Small facts for clients and mail (status, previous_status, from_soc, summary). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    /** When the notification dispatcher took the event (null: not yet). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /** When the webhook fan-out took the event (null: not yet). */
    webhooksDispatchedAt: timestamp('webhooks_dispatched_at', { withTimezone: true }),
  },
  (t) => [
    index('events_created_idx').on(t.created),
    index('events_undispatched_idx')
      .on(t.id)
      .where(sql`${t.dispatchedAt} IS NULL`),
    index('events_webhooks_undispatched_idx')
      .on(t.id)
      .where(sql`${t.webhooksDispatchedAt} IS NULL`),
    index('events_incident_type_idx').on(t.incidentKey, t.type),
    // the newest change of any incident: the version of the incident list's count cache
    index('events_incident_change_idx')
      .on(t.id)
      .where(sql`${t.type} IN ('incident.created', 'incident.updated')`),
  ],
);

/** A user's choice of notification e-mails; no row: the defaults (every event, assigned only, account language). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  events: text('events')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  scope: text('scope', { enum: ['assigned', 'all'] })
    .notNull()
    .default('assigned'),
  language: text('language', { enum: ['ru', 'en'] })
    .notNull()
    .default('ru'),
  /** Kinds that reach the notification centre (issue 40); the default: every kind. */
  portalEvents: text('portal_events')
    .array()
    .notNull()
    .default(sql`'{incident_created,status_changed,comment,report_ready,task_answer}'::text[]`),
  updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The notification centre (issue 40): one row per user and event that concerns them, written by
 * the `notify.inbox` job of the event's dispatch (so nothing is lost when an instance stops) and
 * read newest first. The object's ids are copied so that a line links to it without the event,
 * which is pruned after days; its name is read from the object at display time.
 */
export const inboxItems = pgTable(
  'inbox_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    /** A PORTAL_EVENTS kind. */
    kind: text('kind').notNull(),
    systemIds: integer('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    incidentKey: bigint('incident_key', { mode: 'number' }),
    /** The incident's status after the change (status_changed). */
    status: text('status'),
    reportId: bigint('report_id', { mode: 'number' }),
    taskId: bigint('task_id', { mode: 'number' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // one item per user and event: a job run twice writes nothing new
    uniqueIndex('inbox_items_user_event_idx').on(t.userId, t.eventId),
    // a user's page, newest first
    index('inbox_items_user_id_idx').on(t.userId, t.id.desc()),
    // the bell's count and the unread filter
    index('inbox_items_user_unread_idx')
      .on(t.userId, t.id.desc())
      .where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * Events tickets already redeemed (issue 25): a ticket opens one stream once, on any instance.
 * Keyed by the ticket's `jti`; a row is useless once the ticket has expired and is pruned then.
 */
export const eventTicketUses = pgTable(
  'event_ticket_uses',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('event_ticket_uses_expires_idx').on(t.expiresAt)],
);
