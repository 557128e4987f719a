-- Exact totals of summary__icontains and host__icontains from the count table (incident_counts,
-- migration 0004) instead of the index of words (0025), which has to read the heap page of every
-- match: an incident has one summary and one list of affected hosts, so the counts of the
-- summaries and host lists that match a term add up to the number of incidents that match it.
-- A bench set of a million incidents holds 177,631 distinct summaries and 700 host lists.
--
-- The count table keys each summary and each host list (as array text, which reads back exactly
-- with ::text[]) of up to 1,000 bytes; longer ones would not fit a B-tree key and count under
-- summary_long / hosts_long with the value '', to be checked row by row through the partial
-- indexes below (a summary of the portal is at most 255 characters, a host list at most 200
-- hosts of 255 characters: rare, but allowed).
--
-- The index of words (0025) then keeps the searched text alone: the summary's own words and pairs
-- ('s12:…') and the hosts ('h12:…') go (621 → 565 MB on a million incidents).
--
-- The text of a host list: array text (array_out is stable in general, immutable for text).
CREATE FUNCTION incident_hosts_text(hosts text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT hosts::text $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION incident_count_keys(i incidents) RETURNS TABLE (dim text, value text)
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
$$;
--> statement-breakpoint
DROP TRIGGER incidents_counts ON incidents;
--> statement-breakpoint
CREATE TRIGGER incidents_counts AFTER INSERT OR DELETE OR UPDATE OF
  system_id, status, priority, issue_type_id, service_id, sla_breached, gossopka_id, customer_assignee_id,
  resolution, resolution_id, category_id, secondary_category_ids, tactics, techniques, detection_rules, tags,
  summary, affected_systems
  ON incidents FOR EACH ROW EXECUTE FUNCTION incident_counts_track();
--> statement-breakpoint
SELECT incident_counts_rebuild();
--> statement-breakpoint
CREATE INDEX "incident_counts_text_trgm" ON "incident_counts" USING gin ("value" gin_trgm_ops) WHERE "incident_counts"."dim" IN ('summary', 'hosts');--> statement-breakpoint
CREATE INDEX "incidents_long_summary_idx" ON "incidents" USING btree ("system_id") WHERE octet_length("incidents"."summary") > 1000;--> statement-breakpoint
CREATE INDEX "incidents_long_hosts_idx" ON "incidents" USING btree ("system_id") WHERE octet_length(incident_hosts_text("incidents"."affected_systems")) > 1000;
--> statement-breakpoint
DROP INDEX "incidents_search_words_gin";
--> statement-breakpoint
-- The words and pairs of the searched text (summary || ' ' || description), lower-cased and
-- prefixed with the system ('12:dc01'); an entry over 200 bytes is kept as the marker '12:'.
CREATE FUNCTION incident_search_entries(system_id integer, summary text, description text)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT system_id || ':' || CASE WHEN octet_length(x.term) > 200 THEN '' ELSE x.term END), '{}')
    FROM (SELECT t.m[1] AS word, t.m[2] AS sep, lead(t.m[1]) OVER (ORDER BY t.n) AS next
            FROM regexp_matches(lower(summary || ' ' || description), '(\S+)(\s*)', 'g') WITH ORDINALITY AS t(m, n)) w
   CROSS JOIN LATERAL (VALUES (w.word), (w.word || w.sep || w.next)) AS x(term)
   WHERE x.term IS NOT NULL
$$;
--> statement-breakpoint
-- Words ('w') and pairs ('p'); markers are no words.
CREATE OR REPLACE FUNCTION incident_search_vocabulary(entries text[]) RETURNS TABLE (kind text, term text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN t ~ '\s' THEN 'p' ELSE 'w' END, t
    FROM unnest(entries) AS e, substr(e, strpos(e, ':') + 1) AS t
   WHERE t <> ''
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION incident_search_terms_rebuild() RETURNS void LANGUAGE sql AS $$
  INSERT INTO incident_search_terms (system_id, kind, term)
  SELECT DISTINCT i.system_id, v.kind, v.term
    FROM incidents i, incident_search_vocabulary(incident_search_entries(i.system_id, i.summary, i.description)) v
  ON CONFLICT DO NOTHING
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION incident_search_terms_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO incident_search_terms (system_id, kind, term)
    SELECT DISTINCT n.system_id, v.kind, v.term
      FROM new_rows n JOIN old_rows o ON o.id = n.id,
           incident_search_vocabulary(incident_search_entries(n.system_id, n.summary, n.description)) v
     WHERE (n.system_id, n.summary, n.description) IS DISTINCT FROM (o.system_id, o.summary, o.description)
     ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO incident_search_terms (system_id, kind, term)
    SELECT DISTINCT n.system_id, v.kind, v.term
      FROM new_rows n,
           incident_search_vocabulary(incident_search_entries(n.system_id, n.summary, n.description)) v
     ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION incident_search_entries(integer, text, text, text[]);
--> statement-breakpoint
DELETE FROM incident_search_terms WHERE kind = 'h';
--> statement-breakpoint
CREATE INDEX "incidents_search_words_gin" ON "incidents" USING gin (incident_search_entries("system_id", "summary", "description"));
