import { sql } from 'drizzle-orm';
import type { PortalEvent } from '@soc/contracts';
import { PORTAL_EVENTS, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { SystemScope } from '../../core/auth.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { sqlList } from '../../db/fragments.ts';

const intArray = (ids: readonly number[]) => sql`ARRAY[${sqlList(ids)}]::int[]`;

/** Without saved preferences every kind reaches the centre. */
const ALL_KINDS = sql`ARRAY[${sqlList(PORTAL_EVENTS)}]::text[]`;

/**
 * The accounts an event of `kind` concerns, in SQL over the events row `e`: the customers of the
 * incident's systems (a new incident, not the one who registered it); those who follow the
 * incident (its reporter, its customer assignee, who commented on it), for a status change and
 * for a comment by someone else (never for the user's own); the report's author; the task's author.
 */
function concerned(kind: PortalEvent) {
  const followers = sql`SELECT i.reporter_id FROM incidents i WHERE i.key = e.incident_key
                        UNION SELECT i.customer_assignee_id FROM incidents i WHERE i.key = e.incident_key
                        UNION SELECT c.author_id FROM comments c
                                JOIN incidents i ON i.id = c.incident_id
                               WHERE i.key = e.incident_key AND NOT c.internal`;
  switch (kind) {
    case 'incident_created':
      return sql`SELECT us.user_id FROM user_systems us
                  WHERE us.system_id = ANY(e.system_ids)
                    AND us.user_id IS DISTINCT FROM (e.data->>'reporter_id')::int`;
    case 'status_changed':
      // not the one who moved it: every status change by a user (an action, a comment that moves
      // the status) writes that user's comment in the same transaction, hence at the same now()
      return sql`SELECT f.reporter_id FROM (${followers}) f
                  WHERE f.reporter_id NOT IN (
                        SELECT c.author_id FROM comments c JOIN incidents i ON i.id = c.incident_id
                         WHERE i.key = e.incident_key AND c.created = e.created
                           AND c.author_id IS NOT NULL AND NOT c.internal)`;
    case 'comment':
      return sql`SELECT f.reporter_id FROM (${followers}) f
                  WHERE f.reporter_id IS DISTINCT FROM
                        (SELECT c.author_id FROM comments c WHERE c.id = e.object_id::bigint)`;
    case 'report_ready':
      return sql`SELECT r.created_by_id FROM reports r WHERE r.id = e.object_id::bigint`;
    case 'task_answer':
      return sql`SELECT t.author_id FROM tasks t WHERE t.id = e.object_id::bigint`;
  }
}

/** A caller's items of systems still theirs (null scope: staff, every system). */
const inScope = (scope: SystemScope) =>
  scope
    ? sql`AND cardinality(b.system_ids) > 0 AND b.system_ids <@ ${intArray(scope.length ? scope : [0])}`
    : sql``;

export interface InboxRow {
  id: string | number;
  kind: PortalEvent;
  created_ms: string | number;
  read: boolean;
  incident_key: string | number | null;
  summary: string | null;
  status: string | null;
  report_id: string | number | null;
  report_name: string | null;
  task_id: string | number | null;
  task_type: string | null;
  task_subject: string | null;
}

/** The notification centre's items (issue 40): one statement each, every one by the user's own rows. */
export function createInboxRepository(db: Db) {
  return {
    /**
     * Writes the items of event `eventId` for every active customer it concerns who may see it
     * (every system of the event is theirs, the rule of the e-mail and the live stream) and keeps
     * the kind on; an item already written is skipped, so a repeated job adds nothing. Returns
     * the users who got a new item.
     */
    async fanOut(eventId: number, kind: PortalEvent): Promise<number[]> {
      const rows = await queryRows<{ user_id: number }>(
        db,
        sql`WITH e AS (SELECT * FROM events WHERE id = ${eventId})
            INSERT INTO inbox_items (user_id, event_id, kind, system_ids, incident_key, status, report_id, task_id, created)
            SELECT u.id, e.id, ${kind}, e.system_ids, e.incident_key,
                   CASE WHEN ${kind} = 'status_changed' THEN e.data->>'status' END,
                   CASE WHEN e.type = 'report.ready' THEN e.object_id::bigint END,
                   CASE WHEN e.type = 'task.updated' THEN e.object_id::bigint END,
                   e.created
              FROM e JOIN users u ON u.id IN (${concerned(kind)})
              LEFT JOIN notification_preferences p ON p.user_id = u.id
             WHERE u.is_active AND u.role = 'customer'
               AND ${kind} = ANY(coalesce(p.portal_events, ${ALL_KINDS}))
               AND cardinality(e.system_ids) > 0
               AND (SELECT array_agg(us.system_id) FROM user_systems us WHERE us.user_id = u.id) @> e.system_ids
             ORDER BY u.id
            ON CONFLICT (user_id, event_id) DO NOTHING
            RETURNING user_id`,
      );
      return rows.map((r) => r.user_id);
    },

    /** One page of a user's items, newest first (inbox_items_user_id_idx or, unread, the partial index). */
    async page(
      userId: number,
      scope: SystemScope,
      unread: boolean,
      limit: number,
      offset: number,
    ): Promise<InboxRow[]> {
      return queryRows<InboxRow>(
        db,
        sql`SELECT b.id, b.kind, floor(extract(epoch FROM b.created) * 1000)::bigint AS created_ms,
                   b.read_at IS NOT NULL AS read, b.incident_key, i.summary, b.status,
                   b.report_id, r.name AS report_name, b.task_id, t.type AS task_type, t.subject AS task_subject
              FROM inbox_items b
              LEFT JOIN incidents i ON i.key = b.incident_key
              LEFT JOIN reports r ON r.id = b.report_id
              LEFT JOIN tasks t ON t.id = b.task_id
             WHERE b.user_id = ${userId} ${unread ? sql`AND b.read_at IS NULL` : sql``} ${inScope(scope)}
             ORDER BY b.id DESC LIMIT ${limit} OFFSET ${offset}`,
      );
    },

    /** How many of a user's items there are (unread only: the bell), counted up to `cap` + 1. */
    async count(userId: number, scope: SystemScope, unread: boolean, cap = TOTAL_COUNT_CAP): Promise<number> {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM (
              SELECT 1 FROM inbox_items b
               WHERE b.user_id = ${userId} ${unread ? sql`AND b.read_at IS NULL` : sql``} ${inScope(scope)}
               LIMIT ${cap + 1}) capped`,
      );
      return row?.n ?? 0;
    },

    /** Marks one of the user's items read; false when the user has no such item. */
    async markRead(userId: number, scope: SystemScope, id: number): Promise<boolean> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`UPDATE inbox_items b SET read_at = coalesce(b.read_at, now())
             WHERE b.id = ${id} AND b.user_id = ${userId} ${inScope(scope)}
            RETURNING b.id`,
      );
      return rows.length === 1;
    },

    /** Marks the user's unread items up to id `upTo` read (the partial index); later ones stay unread. */
    async markAllRead(userId: number, upTo: number): Promise<void> {
      await db.execute(
        sql`UPDATE inbox_items SET read_at = now()
             WHERE user_id = ${userId} AND read_at IS NULL AND id <= ${upTo}`,
      );
    },
  };
}

export type InboxRepository = ReturnType<typeof createInboxRepository>;
