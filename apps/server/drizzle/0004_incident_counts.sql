CREATE TABLE "incident_counts" (
	"system_id" integer NOT NULL,
	"dim" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "incident_counts_system_id_dim_value_pk" PRIMARY KEY("system_id","dim","value")
);
--> statement-breakpoint
-- The (dim, value) pairs an incident counts under: one per filter value it matches, each once.
CREATE FUNCTION incident_count_keys(i incidents) RETURNS TABLE (dim text, value text)
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT 'all', ''
  UNION ALL SELECT 'status', i.status
  UNION ALL SELECT 'priority', i.priority
  UNION ALL SELECT 'issuetype', i.issue_type_id::text
  UNION ALL SELECT 'service', coalesce(i.service_id::text, '')
  UNION ALL SELECT 'sla_breached', i.sla_breached::text
  UNION ALL SELECT 'gossopka', (i.gossopka_id IS NOT NULL)::text
  UNION ALL SELECT 'assignee', coalesce(i.customer_assignee_id::text, '')
  UNION ALL SELECT 'resolution', coalesce(i.resolution, '')
  UNION ALL SELECT 'resolution_name', coalesce(i.resolution_id::text, '')
  UNION ALL SELECT DISTINCT 'category', c::text
              FROM unnest(array_append(i.secondary_category_ids, i.category_id)) AS c WHERE c IS NOT NULL
  UNION ALL SELECT DISTINCT 'tactic', v FROM unnest(i.tactics) AS v
  UNION ALL SELECT DISTINCT 'technique', v FROM unnest(i.techniques) AS v
  UNION ALL SELECT DISTINCT 'rule', v FROM unnest(i.detection_rules) AS v
  UNION ALL SELECT DISTINCT 'tag', v FROM unnest(i.tags) AS v
$$;
--> statement-breakpoint
-- Applies the difference between the old and the new row, in key order (no deadlocks between writers).
CREATE FUNCTION incident_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_counts AS c (system_id, dim, value, n)
  SELECT d.system_id, d.dim, d.value, sum(d.delta)
    FROM (SELECT NEW.system_id AS system_id, k.dim, k.value, 1 AS delta
            FROM incident_count_keys(NEW) k WHERE TG_OP <> 'DELETE'
          UNION ALL
          SELECT OLD.system_id, k.dim, k.value, -1
            FROM incident_count_keys(OLD) k WHERE TG_OP <> 'INSERT') d
   GROUP BY d.system_id, d.dim, d.value
  HAVING sum(d.delta) <> 0
   ORDER BY d.system_id, d.dim, d.value
  ON CONFLICT (system_id, dim, value) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER incidents_counts AFTER INSERT OR DELETE OR UPDATE OF
  system_id, status, priority, issue_type_id, service_id, sla_breached, gossopka_id, customer_assignee_id,
  resolution, resolution_id, category_id, secondary_category_ids, tactics, techniques, detection_rules, tags
  ON incidents FOR EACH ROW EXECUTE FUNCTION incident_counts_track();
--> statement-breakpoint
-- Recounts everything (after a bulk load that ran with the trigger disabled).
CREATE FUNCTION incident_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM incident_counts;
  INSERT INTO incident_counts (system_id, dim, value, n)
  SELECT i.system_id, k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_count_keys(i) k
   GROUP BY i.system_id, k.dim, k.value;
$$;
--> statement-breakpoint
SELECT incident_counts_rebuild();
--> statement-breakpoint
-- CSV cells. csv_safe neutralises spreadsheet formulas (CSV injection) with a leading apostrophe
-- and turns '' into NULL (COPY writes NULL as an empty, unquoted cell); csv_cell also quotes as
-- RFC 4180 says, for the engines that format lines themselves. NULL is an empty cell.
CREATE FUNCTION csv_safe(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v = '' THEN NULL
              WHEN left(v, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || v
              ELSE v END
$$;
--> statement-breakpoint
CREATE FUNCTION csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN csv_safe(v) ~ '[",\r\n]' THEN '"' || replace(csv_safe(v), '"', '""') || '"'
              ELSE coalesce(csv_safe(v), '') END
$$;
