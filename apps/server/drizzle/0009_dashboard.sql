CREATE TABLE "eps_hourly" (
	"system_id" integer NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"events" bigint NOT NULL,
	CONSTRAINT "eps_hourly_system_id_bucket_start_pk" PRIMARY KEY("system_id","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "incident_daily" (
	"system_id" integer NOT NULL,
	"day" date NOT NULL,
	"dim" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "incident_daily_system_id_day_dim_value_pk" PRIMARY KEY("system_id","day","dim","value")
);
--> statement-breakpoint
-- The dashboard dimensions an incident counts under, each value once (see schema/dashboard.ts).
CREATE FUNCTION incident_daily_keys(i incidents) RETURNS TABLE (dim text, value text)
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
$$;
--> statement-breakpoint
-- The UTC day of an incident's registration.
CREATE FUNCTION incident_day(created timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT (created AT TIME ZONE 'UTC')::date $$;
--> statement-breakpoint
-- Applies the difference between the old and the new row to the system's and the global (0) rows,
-- in key order (no deadlocks between writers).
CREATE FUNCTION incident_daily_track() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER incidents_daily AFTER INSERT OR DELETE OR UPDATE OF
  system_id, created, priority, status, sla_breached, category_id, secondary_category_ids, tactics, techniques,
  observed_iocs
  ON incidents FOR EACH ROW EXECUTE FUNCTION incident_daily_track();
--> statement-breakpoint
-- Recounts everything (after a bulk load that ran with the trigger disabled).
CREATE FUNCTION incident_daily_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM incident_daily;
  INSERT INTO incident_daily (system_id, day, dim, value, n)
  SELECT s.id, incident_day(i.created), k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
         CROSS JOIN LATERAL (VALUES (i.system_id), (0)) AS s(id)
   GROUP BY 1, 2, 3, 4;
$$;
--> statement-breakpoint
SELECT incident_daily_rebuild();
--> statement-breakpoint
-- eps_hourly follows log_source_event_buckets: one set-based upsert per statement (transition
-- tables), for each system and for all systems (0), in key order.
CREATE FUNCTION eps_hourly_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO eps_hourly AS e (system_id, bucket_start, events)
  SELECT s.id, n.bucket_start, sum(n.events)
    FROM new_rows n CROSS JOIN LATERAL (VALUES (n.system_id), (0)) AS s(id)
   GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (system_id, bucket_start) DO UPDATE SET events = e.events + excluded.events;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION eps_hourly_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE eps_hourly AS e SET events = e.events - d.events
    FROM (SELECT s.id, o.bucket_start, sum(o.events) AS events
            FROM old_rows o CROSS JOIN LATERAL (VALUES (o.system_id), (0)) AS s(id) GROUP BY 1, 2) d
   WHERE e.system_id = d.id AND e.bucket_start = d.bucket_start;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION eps_hourly_updated() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint
CREATE TRIGGER log_source_event_buckets_eps_ins AFTER INSERT ON log_source_event_buckets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION eps_hourly_inserted();
--> statement-breakpoint
CREATE TRIGGER log_source_event_buckets_eps_del AFTER DELETE ON log_source_event_buckets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION eps_hourly_deleted();
--> statement-breakpoint
CREATE TRIGGER log_source_event_buckets_eps_upd AFTER UPDATE ON log_source_event_buckets
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION eps_hourly_updated();
--> statement-breakpoint
-- Recounts everything.
CREATE FUNCTION eps_hourly_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM eps_hourly;
  INSERT INTO eps_hourly (system_id, bucket_start, events)
  SELECT s.id, b.bucket_start, sum(b.events)
    FROM log_source_event_buckets b CROSS JOIN LATERAL (VALUES (b.system_id), (0)) AS s(id)
   GROUP BY 1, 2;
$$;
--> statement-breakpoint
SELECT eps_hourly_rebuild();
--> statement-breakpoint
-- One dimension over a range of days, from the index alone (the top domains and IP addresses).
CREATE INDEX incident_daily_dim_idx ON incident_daily (system_id, dim, day) INCLUDE (value, n);
