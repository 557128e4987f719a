import type { DerivedSql, DerivedTable, TriggerRef } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/** Keeps `incident_counts` row by row; a bulk load switches it off and calls the rebuild. */
export const INCIDENT_COUNTS_TRIGGER = {
  name: 'incidents_counts',
  table: 'incidents',
} as const satisfies TriggerRef;
export const INCIDENT_COUNTS_REBUILD = 'incident_counts_rebuild';

/** What the table should hold: every incident counted under each of its keys. */
const recount = `SELECT i.system_id, k.dim, k.value, count(*)
    FROM incidents i CROSS JOIN LATERAL incident_count_keys(i) k
   GROUP BY i.system_id, k.dim, k.value`;

export const incidentCountsTable: DerivedTable = {
  table: 'incident_counts',
  keys: ['system_id', 'dim', 'value'],
  value: 'n',
  sources: ['incidents'],
  recount,
  rebuild: `SELECT ${INCIDENT_COUNTS_REBUILD}()`,
};

/**
 * Exact incident counts per system and filter value (schema/incidents.ts `incidentCounts`), so
 * that list totals of the common filters never count a million rows.
 */
export const incidentCountsSql: DerivedSql = {
  name: 'incident counts',
  statements: [
    // The text of a host list: array text (array_out is stable in general, immutable for text).
    `CREATE OR REPLACE FUNCTION incident_hosts_text(hosts text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT hosts::text $$`,
    // The (dim, value) pairs an incident counts under: one per filter value it matches, each once.
    // Each summary and host list of up to 1,000 bytes is a key (an incident has one of each, so the
    // counts of those that match a term add up); longer ones count under summary_long/hosts_long.
    `CREATE OR REPLACE FUNCTION incident_count_keys(i incidents) RETURNS TABLE (dim text, value text)
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
  UNION ALL SELECT CASE WHEN octet_length(i.summary) > 1000 THEN 'summary_long' ELSE 'summary' END,
                   CASE WHEN octet_length(i.summary) > 1000 THEN '' ELSE i.summary END
  UNION ALL SELECT CASE WHEN octet_length(h.t) > 1000 THEN 'hosts_long' ELSE 'hosts' END,
                   CASE WHEN octet_length(h.t) > 1000 THEN '' ELSE h.t END
              FROM incident_hosts_text(i.affected_systems) AS h(t)
$$`,
    // Applies the difference between the old and the new row, in key order (no deadlocks between writers).
    `CREATE OR REPLACE FUNCTION incident_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$`,
    // the columns that incident_count_keys reads
    ...trigger(
      INCIDENT_COUNTS_TRIGGER,
      `AFTER INSERT OR DELETE OR UPDATE OF
  system_id, status, priority, issue_type_id, service_id, sla_breached, gossopka_id, customer_assignee_id,
  resolution, resolution_id, category_id, secondary_category_ids, tactics, techniques, detection_rules, tags,
  summary, affected_systems`,
      'FOR EACH ROW EXECUTE FUNCTION incident_counts_track()',
    ),
    // Recounts everything (after a bulk load that ran with the trigger disabled).
    `CREATE OR REPLACE FUNCTION ${INCIDENT_COUNTS_REBUILD}() RETURNS void LANGUAGE sql AS $$
  DELETE FROM incident_counts;
  INSERT INTO incident_counts (system_id, dim, value, n)
  ${recount};
$$`,
  ],
};
