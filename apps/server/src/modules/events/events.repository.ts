import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { eventTicketUses } from '../../db/schema/index.ts';
import type { StoredEvent } from './event-bus.ts';
import { EVENTS_CHANNEL, INBOX_SIGNAL } from './event-bus.ts';

/** How far back a reconnecting client is caught up. */
const REPLAY_WINDOW_MINUTES = 15;
const REPLAY_MAX = 200;

const intArray = (ids: number[]) =>
  sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;

interface EventRow {
  id: string | number;
  type: string;
  system_ids: number[];
  incident_key: string | number | null;
  object_id: string;
  data: Record<string, unknown>;
  created_ms: string | number;
}

const toEvent = (r: EventRow): StoredEvent => ({
  id: Number(r.id),
  type: r.type,
  systemIds: r.system_ids,
  incidentKey: r.incident_key === null ? null : Number(r.incident_key),
  objectId: r.object_id,
  data: r.data,
  created: Number(r.created_ms),
});

export function createEventsRepository(db: Db) {
  return {
    /**
     * Events after `afterId` of the last minutes that a caller with `scope` may see (null: all),
     * oldest first. Served by the primary key; the window bounds the scan.
     */
    async after(afterId: number, scope: number[] | null): Promise<StoredEvent[]> {
      const rows = await queryRows<EventRow>(
        db,
        sql`SELECT id, type, system_ids, incident_key, object_id, data,
                   floor(extract(epoch FROM created) * 1000)::bigint AS created_ms
              FROM events
             WHERE id > ${afterId}
               AND created > now() - make_interval(mins => ${REPLAY_WINDOW_MINUTES})
               ${scope ? sql`AND cardinality(system_ids) > 0 AND system_ids <@ ${intArray(scope.length ? scope : [0])}` : sql``}
             ORDER BY id LIMIT ${REPLAY_MAX}`,
      );
      return rows.map(toEvent);
    },

    /** The newest event's id (0: none yet); the primary key answers it. */
    async newestId(): Promise<number> {
      const rows = await queryRows<{ id: string | number | null }>(db, sql`SELECT max(id) AS id FROM events`);
      return Number(rows[0]?.id ?? 0);
    },

    async byId(id: number): Promise<StoredEvent | undefined> {
      const rows = await queryRows<EventRow>(
        db,
        sql`SELECT id, type, system_ids, incident_key, object_id, data,
                   floor(extract(epoch FROM created) * 1000)::bigint AS created_ms
              FROM events WHERE id = ${id}`,
      );
      return rows[0] && toEvent(rows[0]);
    },

    /**
     * Tells the open streams of these users, on every instance, that their notification centre
     * changed (INBOX_SIGNAL): a NOTIFY on the events channel without an events row, sent on commit.
     */
    async signalInbox(userIds: number[]): Promise<void> {
      if (!userIds.length) return;
      await db.execute(
        sql`SELECT pg_notify(${EVENTS_CHANNEL}, json_build_object(
                     'id', 0, 'type', ${INBOX_SIGNAL}::text, 'data', json_build_object('user_id', u))::text)
              FROM unnest(${intArray(userIds)}) u`,
      );
    },

    /** Removes events older than `days` (index on created) and the uses of expired tickets. */
    async prune(days: number): Promise<void> {
      await db.execute(sql`DELETE FROM events WHERE created < now() - make_interval(days => ${days})`);
      await db.delete(eventTicketUses).where(lt(eventTicketUses.expiresAt, new Date()));
    },

    /**
     * Records the use of ticket `jti`; false when it was used before, by any instance (the
     * primary key decides between two instances redeeming it at once).
     */
    async redeemTicket(jti: string, expiresAt: Date): Promise<boolean> {
      const rows = await db
        .insert(eventTicketUses)
        .values({ jti, expiresAt })
        .onConflictDoNothing()
        .returning({ jti: eventTicketUses.jti });
      return rows.length === 1;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
