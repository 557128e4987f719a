import { and, eq, sql } from 'drizzle-orm';
import type { Language, NotificationEvent, NotificationScope, PortalEvent } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import {
  comments,
  incidents,
  notificationPreferences,
  reports,
  systems,
  userSystems,
  users,
} from '../../db/schema/index.ts';

/** Job types: one per claimed event (finds the recipients), one per recipient (sends). */
export const NOTIFY_EVENT_JOB = 'notify.event';
export const NOTIFY_USER_JOB = 'notify.user';
/** Job type: the notification centre's items of one event (issue 40). */
export const NOTIFY_INBOX_JOB = 'notify.inbox';

/**
 * The notification an event stands for, in SQL over an events row `e`; NULL for events that
 * send no mail (e.g. an incident edit that does not wait for the customer).
 */
const NOTIFICATION_OF = sql`CASE
  WHEN e.type = 'incident.created' THEN 'incident_created'
  WHEN e.type = 'incident.updated' AND e.data->>'status' = 'waiting_for_customer'
       AND e.data->>'previous_status' IS NOT NULL THEN 'waiting_for_customer'
  WHEN e.type = 'incident.sla_risk' THEN 'sla_at_risk'
  WHEN e.type = 'comment.created' AND (e.data->>'from_soc')::boolean THEN 'soc_comment'
  WHEN e.type = 'report.ready' THEN 'report_ready'
END`;

/** The notification centre's kind (PORTAL_EVENTS) of an events row `e`; NULL for none. */
const PORTAL_KIND_OF = sql`CASE
  WHEN e.type = 'incident.created' THEN 'incident_created'
  WHEN e.type = 'incident.updated' AND e.data->>'previous_status' IS NOT NULL THEN 'status_changed'
  WHEN e.type = 'comment.created' THEN 'comment'
  WHEN e.type = 'report.ready' THEN 'report_ready'
  WHEN e.type = 'task.updated' AND (e.data->>'soc_reply')::boolean THEN 'task_answer'
END`;

/** Statuses in which an incident is still open. */
const OPEN_STATUSES = sql`('waiting_for_customer', 'waiting_for_support', 'work_in_progress')`;

export interface Recipient {
  userId: number;
}

export function createNotificationsRepository(db: Db) {
  return {
    async preferences(userId: number) {
      const [row] = await db
        .select({
          events: notificationPreferences.events,
          portalEvents: notificationPreferences.portalEvents,
          scope: notificationPreferences.scope,
          language: notificationPreferences.language,
          userLocale: users.locale,
          email: users.email,
        })
        .from(users)
        .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
        .where(eq(users.id, userId));
      return row;
    },

    /** Saves the choice; `portalEvents` undefined keeps the saved one (the column's default on a first save). */
    async savePreferences(
      userId: number,
      p: {
        events: NotificationEvent[];
        scope: NotificationScope;
        language: Language;
        portalEvents: PortalEvent[] | undefined;
      },
    ): Promise<void> {
      const set = {
        events: p.events,
        scope: p.scope,
        language: p.language,
        ...(p.portalEvents ? { portalEvents: p.portalEvents } : {}),
        updated: new Date(),
      };
      await db
        .insert(notificationPreferences)
        .values({ userId, ...set })
        .onConflictDoUpdate({ target: notificationPreferences.userId, set });
    },

    /**
     * Claims up to `limit` events not yet dispatched (each by exactly one instance: SKIP LOCKED)
     * and, in the same statement, queues one job for each that sends mail. Returns how many
     * events were claimed.
     */
    async dispatch(limit = 200): Promise<number> {
      const rows = await queryRows<{ claimed: string | number }>(
        db,
        sql`WITH claimed AS (
              UPDATE events SET dispatched_at = now()
               WHERE id IN (SELECT id FROM events WHERE dispatched_at IS NULL
                             ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
              RETURNING id, type, data),
            queued AS (
              INSERT INTO jobs (type, payload)
              SELECT ${NOTIFY_EVENT_JOB}, jsonb_build_object('eventId', e.id, 'notification', ${NOTIFICATION_OF})
                FROM claimed e WHERE ${NOTIFICATION_OF} IS NOT NULL
              RETURNING id),
            inboxed AS (
              INSERT INTO jobs (type, payload)
              SELECT ${NOTIFY_INBOX_JOB}, jsonb_build_object('eventId', e.id, 'kind', ${PORTAL_KIND_OF})
                FROM claimed e WHERE ${PORTAL_KIND_OF} IS NOT NULL
              RETURNING id)
            SELECT count(*) AS claimed FROM claimed`,
      );
      return Number(rows[0]?.claimed ?? 0);
    },

    /**
     * Records 'SLA at risk' events for unregistered open incidents whose deadline falls within
     * the next `minutes`, once per incident. Served by incidents_unregistered_sla_idx; an
     * advisory lock keeps two instances from recording the same incident twice.
     */
    async recordSlaRisks(minutes: number): Promise<void> {
      await db.transaction(async (tx) => {
        const [lock] = await queryRows<{ ok: boolean }>(
          tx,
          sql`SELECT pg_try_advisory_xact_lock(7204312) AS ok`,
        );
        if (!lock?.ok) return;
        await tx.execute(
          sql`INSERT INTO events (type, system_ids, incident_key, object_id, data)
              SELECT 'incident.sla_risk', ARRAY[i.system_id], i.key, i.id::text,
                     jsonb_build_object('status', i.status, 'sla', floor(extract(epoch FROM i.sla) * 1000)::bigint)
                FROM incidents i
               WHERE i.notified_at IS NULL AND i.sla > now() AND i.sla <= now() + make_interval(mins => ${minutes})
                 AND NOT i.sla_breached AND i.status IN ${OPEN_STATUSES}
                 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.incident_key = i.key AND e.type = 'incident.sla_risk')
               ORDER BY i.sla LIMIT 500`,
        );
      });
    },

    /**
     * Active accounts with an e-mail address who want `notification` about the event: customers
     * whose systems include every system of the object (no preferences row: every event, own
     * incidents and reports only), staff only with preferences saying so. `ownerId` is the
     * incident's customer assignee or the report's author.
     */
    async recipients(
      notification: NotificationEvent,
      systemIds: number[],
      ownerId: number | null,
    ): Promise<number[]> {
      if (!systemIds.length) return [];
      const systemArray = sql`ARRAY[${sql.join(
        systemIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::int[]`;
      const rows = await queryRows<{ id: number }>(
        db,
        sql`SELECT u.id FROM users u
              LEFT JOIN notification_preferences p ON p.user_id = u.id
             WHERE u.is_active AND u.email <> ''
               AND (u.id IN (SELECT us.user_id FROM user_systems us WHERE us.system_id = ANY(${systemArray}))
                    OR u.id = ${ownerId} OR (u.role <> 'customer' AND p.user_id IS NOT NULL))
               AND (CASE WHEN p.user_id IS NULL THEN u.role = 'customer'
                         ELSE ${notification} = ANY(p.events) END)
               AND (coalesce(p.scope, 'assigned') = 'all' OR u.id = ${ownerId})
               AND (u.role <> 'customer'
                    OR (SELECT array_agg(us.system_id) FROM user_systems us WHERE us.user_id = u.id) @> ${systemArray})
             ORDER BY u.id`,
      );
      return rows.map((r) => r.id);
    },

    /** The incident an event is about, with its system's name, for the mail. */
    async incidentFacts(key: number) {
      const [incident] = await db
        .select({
          id: incidents.id,
          key: incidents.key,
          summary: incidents.summary,
          priority: incidents.priority,
          status: incidents.status,
          sla: incidents.sla,
          assignee: incidents.customerAssigneeId,
          isId: systems.isId,
          systemName: systems.fullName,
        })
        .from(incidents)
        .innerJoin(systems, eq(systems.id, incidents.systemId))
        .where(eq(incidents.key, key));
      return incident;
    },

    async commentFacts(id: number) {
      const [comment] = await db
        .select({ author: comments.authorName, body: comments.body })
        .from(comments)
        // an internal note of the SOC is never mailed (it writes no event either: design §9)
        .where(and(eq(comments.id, id), eq(comments.internal, false)));
      return comment;
    },

    async reportFacts(id: number) {
      const [report] = await db
        .select({ name: reports.name, createdBy: reports.createdById })
        .from(reports)
        .where(eq(reports.id, id));
      return report;
    },

    /** A recipient's account as it is now: whether it may still get mail, and its systems. */
    async recipientAccount(userId: number) {
      const [user] = await db
        .select({ email: users.email, isActive: users.isActive, role: users.role })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) return undefined;
      const memberships = await db
        .select({ systemId: userSystems.systemId })
        .from(userSystems)
        .where(eq(userSystems.userId, userId));
      return { ...user, systemIds: memberships.map((m) => m.systemId) };
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
