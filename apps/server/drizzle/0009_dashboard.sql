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
