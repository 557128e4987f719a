import type { DerivedSql, DerivedTable, TriggerRef } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/** Keeps `eps_hourly` on inserts of event buckets; a bulk load switches it off and calls the rebuild. */
export const EPS_HOURLY_INSERT_TRIGGER = {
  name: 'log_source_event_buckets_eps_ins',
  table: 'log_source_event_buckets',
} as const satisfies TriggerRef;
export const EPS_HOURLY_REBUILD = 'eps_hourly_rebuild';

/** The events of every bucket, for its system and for all systems (0). */
const recount = `SELECT s.id, b.bucket_start, sum(b.events)
    FROM log_source_event_buckets b CROSS JOIN LATERAL (VALUES (b.system_id), (0)) AS s(id)
   GROUP BY 1, 2`;

export const epsHourlyTable: DerivedTable = {
  table: 'eps_hourly',
  keys: ['system_id', 'bucket_start'],
  value: 'events',
  sources: ['log_source_event_buckets'],
  recount,
  rebuild: `SELECT ${EPS_HOURLY_REBUILD}()`,
};

/**
 * eps_hourly follows log_source_event_buckets: one set-based upsert per statement (transition
 * tables), for each system and for all systems (0), in key order.
 */
export const epsHourlySql: DerivedSql = {
  name: 'events per hour',
  statements: [
    `CREATE OR REPLACE FUNCTION eps_hourly_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO eps_hourly AS e (system_id, bucket_start, events)
  SELECT s.id, n.bucket_start, sum(n.events)
    FROM new_rows n CROSS JOIN LATERAL (VALUES (n.system_id), (0)) AS s(id)
   GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (system_id, bucket_start) DO UPDATE SET events = e.events + excluded.events;
  RETURN NULL;
END
$$`,
    `CREATE OR REPLACE FUNCTION eps_hourly_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE eps_hourly AS e SET events = e.events - d.events
    FROM (SELECT s.id, o.bucket_start, sum(o.events) AS events
            FROM old_rows o CROSS JOIN LATERAL (VALUES (o.system_id), (0)) AS s(id) GROUP BY 1, 2) d
   WHERE e.system_id = d.id AND e.bucket_start = d.bucket_start;
  RETURN NULL;
END
$$`,
    `CREATE OR REPLACE FUNCTION eps_hourly_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO eps_hourly AS e (system_id, bucket_start, events)
  SELECT s.id, x.bucket_start, sum(x.events)
    FROM (SELECT n.system_id, n.bucket_start, n.events FROM new_rows n
          UNION ALL
          SELECT o.system_id, o.bucket_start, -o.events FROM old_rows o) x
         CROSS JOIN LATERAL (VALUES (x.system_id), (0)) AS s(id)
   GROUP BY 1, 2 HAVING sum(x.events) <> 0 ORDER BY 1, 2
  ON CONFLICT (system_id, bucket_start) DO UPDATE SET events = e.events + excluded.events;
  RETURN NULL;
END
$$`,
    ...trigger(
      EPS_HOURLY_INSERT_TRIGGER,
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION eps_hourly_inserted()',
    ),
    ...trigger(
      { name: 'log_source_event_buckets_eps_del', table: 'log_source_event_buckets' },
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION eps_hourly_deleted()',
    ),
    ...trigger(
      { name: 'log_source_event_buckets_eps_upd', table: 'log_source_event_buckets' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION eps_hourly_updated()',
    ),
    // Recounts everything.
    `CREATE OR REPLACE FUNCTION ${EPS_HOURLY_REBUILD}() RETURNS void LANGUAGE sql AS $$
  DELETE FROM eps_hourly;
  INSERT INTO eps_hourly (system_id, bucket_start, events)
  ${recount};
$$`,
  ],
};
