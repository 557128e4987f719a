import type { DerivedSql, DerivedTable, TriggerRef } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/**
 * Keeps `incident_daily` and `incident_hourly` row by row; a bulk load switches it off and calls
 * the rebuild.
 */
export const INCIDENT_DAILY_TRIGGER = {
  name: 'incidents_daily',
  table: 'incidents',
} as const satisfies TriggerRef;
export const INCIDENT_DAILY_REBUILD = 'incident_daily_rebuild';

/** Every incident under each of its keys, on its day, for its system and for all systems (0). */
const dailyRecount = `SELECT s.id, incident_day(i.created), k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
         CROSS JOIN LATERAL (VALUES (i.system_id), (0)) AS s(id)
   GROUP BY 1, 2, 3, 4`;

/** Every incident under each of its keys, in its hour, over all systems. */
const hourlyRecount = `SELECT incident_hour(i.created), k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
   GROUP BY 1, 2, 3`;

export const incidentDailyTable: DerivedTable = {
  table: 'incident_daily',
  keys: ['system_id', 'day', 'dim', 'value'],
  value: 'n',
  sources: ['incidents'],
  recount: dailyRecount,
  rebuild: `SELECT ${INCIDENT_DAILY_REBUILD}()`,
};

export const incidentHourlyTable: DerivedTable = {
  table: 'incident_hourly',
  keys: ['hour', 'dim', 'value'],
  value: 'n',
  sources: ['incidents'],
  recount: hourlyRecount,
  rebuild: `SELECT ${INCIDENT_DAILY_REBUILD}()`,
};

/** The dashboard's incident figures per day and system, and per hour (schema/dashboard.ts). */
export const incidentDailyHourlySql: DerivedSql = {
  name: 'incident daily and hourly counts',
  statements: [
    // The dashboard dimensions an incident counts under, each value once (see schema/dashboard.ts).
    `CREATE OR REPLACE FUNCTION incident_daily_keys(i incidents) RETURNS TABLE (dim text, value text)
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT 'all', ''
  UNION ALL SELECT 'priority', i.priority
  UNION ALL SELECT 'status', i.status
  UNION ALL SELECT 'sla_breached', 'true' WHERE i.sla_breached
  UNION ALL SELECT DISTINCT 'category', c::text
              FROM unnest(array_append(i.secondary_category_ids, i.category_id)) AS c WHERE c IS NOT NULL
  UNION ALL SELECT DISTINCT 'tactic', v FROM unnest(i.tactics) AS v
  UNION ALL SELECT DISTINCT 'technique', v FROM unnest(i.techniques) AS v
  UNION ALL SELECT DISTINCT CASE WHEN o->>'ioc_type' IN ('fqdn', 'domain') THEN 'domain' ELSE 'ip' END,
                            lower(o->>'ioc')
              FROM jsonb_array_elements(CASE WHEN jsonb_typeof(i.observed_iocs) = 'array'
                                             THEN i.observed_iocs ELSE '[]'::jsonb END) AS o
             WHERE o->>'ioc_type' IN ('fqdn', 'domain', 'ipv4', 'ipv6', 'ip') AND coalesce(o->>'ioc', '') <> ''
$$`,
    // The UTC day of an incident's registration.
    `CREATE OR REPLACE FUNCTION incident_day(created timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT (created AT TIME ZONE 'UTC')::date $$`,
    // The UTC hour of an incident's registration, whatever the session's time zone.
    `CREATE OR REPLACE FUNCTION incident_hour(created timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT date_trunc('hour', created AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`,
    // Applies the difference between the old and the new row to the system's and the global (0)
    // daily rows, then to the hourly rows over all systems with the same keys, each in key order
    // (every writer locks the two tables in the same order: no deadlocks between writers).
    `CREATE OR REPLACE FUNCTION incident_daily_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_daily AS d (system_id, day, dim, value, n)
  SELECT x.system_id, x.day, x.dim, x.value, sum(x.delta)
    FROM (SELECT s.id AS system_id, incident_day(NEW.created) AS day, k.dim, k.value, 1 AS delta
            FROM incident_daily_keys(NEW) k CROSS JOIN (VALUES (NEW.system_id), (0)) AS s(id)
           WHERE TG_OP <> 'DELETE'
          UNION ALL
          SELECT s.id, incident_day(OLD.created), k.dim, k.value, -1
            FROM incident_daily_keys(OLD) k CROSS JOIN (VALUES (OLD.system_id), (0)) AS s(id)
           WHERE TG_OP <> 'INSERT') x
   GROUP BY x.system_id, x.day, x.dim, x.value
  HAVING sum(x.delta) <> 0
   ORDER BY x.system_id, x.day, x.dim, x.value
  ON CONFLICT (system_id, day, dim, value) DO UPDATE SET n = d.n + excluded.n;
  INSERT INTO incident_hourly AS h (hour, dim, value, n)
  SELECT x.hour, x.dim, x.value, sum(x.delta)
    FROM (SELECT incident_hour(NEW.created) AS hour, k.dim, k.value, 1 AS delta
            FROM incident_daily_keys(NEW) k
           WHERE TG_OP <> 'DELETE'
          UNION ALL
          SELECT incident_hour(OLD.created), k.dim, k.value, -1
            FROM incident_daily_keys(OLD) k
           WHERE TG_OP <> 'INSERT') x
   GROUP BY x.hour, x.dim, x.value
  HAVING sum(x.delta) <> 0
   ORDER BY x.hour, x.dim, x.value
  ON CONFLICT (hour, dim, value) DO UPDATE SET n = h.n + excluded.n;
  RETURN NULL;
END
$$`,
    // the columns that incident_daily_keys and the day read
    ...trigger(
      INCIDENT_DAILY_TRIGGER,
      `AFTER INSERT OR DELETE OR UPDATE OF
  system_id, created, priority, status, sla_breached, category_id, secondary_category_ids, tactics, techniques,
  observed_iocs`,
      'FOR EACH ROW EXECUTE FUNCTION incident_daily_track()',
    ),
    // Recounts both tables (after a bulk load that ran with the trigger disabled); the hourly rows
    // in hour order, as the trigger adds them, so that the rows of an hour share a few pages.
    `CREATE OR REPLACE FUNCTION ${INCIDENT_DAILY_REBUILD}() RETURNS void LANGUAGE sql AS $$
  DELETE FROM incident_daily;
  INSERT INTO incident_daily (system_id, day, dim, value, n)
  ${dailyRecount};
  DELETE FROM incident_hourly;
  INSERT INTO incident_hourly (hour, dim, value, n)
  ${hourlyRecount} ORDER BY 1, 2, 3;
$$`,
  ],
};
