CREATE TABLE "incident_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"dim" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "incident_hourly_hour_dim_value_pk" PRIMARY KEY("hour","dim","value")
);
--> statement-breakpoint
-- No incident changes while the hourly rows are counted and the trigger is replaced.
LOCK TABLE incidents IN SHARE MODE;
--> statement-breakpoint
-- The UTC hour of an incident's registration, whatever the session's time zone.
CREATE FUNCTION incident_hour(created timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT date_trunc('hour', created AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$;
--> statement-breakpoint
-- incident_daily_track (migration 0009) also keeps the hourly rows over all systems, with the same
-- keys, in key order after the daily rows (every writer locks the two tables in the same order).
CREATE OR REPLACE FUNCTION incident_daily_track() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint
-- Recounts both tables (after a bulk load that ran with the trigger disabled).
CREATE OR REPLACE FUNCTION incident_daily_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM incident_daily;
  INSERT INTO incident_daily (system_id, day, dim, value, n)
  SELECT s.id, incident_day(i.created), k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
         CROSS JOIN LATERAL (VALUES (i.system_id), (0)) AS s(id)
   GROUP BY 1, 2, 3, 4;
  DELETE FROM incident_hourly;
  INSERT INTO incident_hourly (hour, dim, value, n)
  SELECT incident_hour(i.created), k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
$$;
--> statement-breakpoint
-- In hour order, as the trigger adds them, so that the rows of an hour share a few pages.
INSERT INTO incident_hourly (hour, dim, value, n)
SELECT incident_hour(i.created), k.dim, k.value, count(*)
  FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
--> statement-breakpoint
ANALYZE incident_hourly;
