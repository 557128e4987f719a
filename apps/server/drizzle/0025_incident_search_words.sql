-- Exact totals of the incident list's text filters (search, summary__icontains, host__icontains)
-- without checking the text of every incident.
--
-- The searched text (summary || ' ' || description, which the search matches with ILIKE, i.e.
-- lower-cased) is cut at whitespace into words. A term without whitespace occurs in the text
-- exactly when it occurs in one of its words; a term of two words (one run of whitespace inside)
-- exactly when it occurs in a pair of adjacent words joined by the whitespace between them. The
-- entries of an incident (incident_search_entries) are its words and pairs ('12:dc01'), those of
-- its summary alone ('s12:dc01') and its affected hosts whole ('h12:dc01.corp.local'), lower-cased
-- and prefixed with the incident's system. A term is looked up in the vocabulary of words, pairs
-- and hosts of the caller's systems (incident_search_terms, trigram index); the incidents holding
-- any of the entries found are then counted through incidents_search_words_gin, a GIN lookup that
-- needs no recheck. An entry of more than 200 bytes (a base64 blob, say) is not kept: the incident
-- holds the marker of its kind and system ('12:', 's12:', 'h12:') instead and is checked with ILIKE.
CREATE FUNCTION incident_search_entries(system_id integer, summary text, description text, hosts text[])
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT e.prefix || system_id || ':' || CASE WHEN octet_length(e.term) > 200 THEN '' ELSE e.term END), '{}')
    FROM (SELECT w.prefix, x.term
            FROM (SELECT src.prefix, t.m[1] AS word, t.m[2] AS sep,
                         lead(t.m[1]) OVER (PARTITION BY src.prefix ORDER BY t.n) AS next
                    FROM (VALUES ('', summary || ' ' || description), ('s', summary)) AS src(prefix, body),
                         regexp_matches(lower(src.body), '(\S+)(\s*)', 'g') WITH ORDINALITY AS t(m, n)) w
           CROSS JOIN LATERAL (VALUES (w.word), (w.word || w.sep || w.next)) AS x(term)
          UNION ALL
          SELECT 'h', lower(h) FROM unnest(hosts) AS h) e
   WHERE e.term IS NOT NULL
$$;
--> statement-breakpoint
-- The vocabulary of some entries: words ('w'), pairs ('p') and hosts ('h'). The summary's words
-- and pairs are words and pairs of the whole text as well; markers are no words.
CREATE FUNCTION incident_search_vocabulary(entries text[]) RETURNS TABLE (kind text, term text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN left(e, 1) = 'h' THEN 'h' WHEN t ~ '\s' THEN 'p' ELSE 'w' END, t
    FROM unnest(entries) AS e, substr(e, strpos(e, ':') + 1) AS t
   WHERE left(e, 1) <> 's' AND t <> ''
$$;
--> statement-breakpoint
CREATE TABLE "incident_search_terms" (
	"system_id" integer NOT NULL,
	"kind" text NOT NULL,
	"term" text NOT NULL,
	CONSTRAINT "incident_search_terms_system_id_kind_term_pk" PRIMARY KEY("system_id","kind","term")
);
--> statement-breakpoint
ALTER TABLE "incident_search_terms" ADD CONSTRAINT "incident_search_terms_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The vocabulary of all incidents (here: those already there; the demo generator's bulk load). A
-- word that no incident holds any longer stays and matches nothing.
CREATE FUNCTION incident_search_terms_rebuild() RETURNS void LANGUAGE sql AS $$
  INSERT INTO incident_search_terms (system_id, kind, term)
  SELECT DISTINCT i.system_id, v.kind, v.term
    FROM incidents i, incident_search_vocabulary(incident_search_entries(i.system_id, i.summary, i.description, i.affected_systems)) v
  ON CONFLICT DO NOTHING
$$;
--> statement-breakpoint
SELECT incident_search_terms_rebuild();
--> statement-breakpoint
CREATE INDEX "incident_search_terms_trgm" ON "incident_search_terms" USING gin ("term" gin_trgm_ops);
--> statement-breakpoint
-- New words of inserted and edited incidents join the vocabulary in the writer's transaction, in
-- key order (two writers adding the same new words cannot wait for each other in opposite orders).
CREATE FUNCTION incident_search_terms_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO incident_search_terms (system_id, kind, term)
    SELECT DISTINCT n.system_id, v.kind, v.term
      FROM new_rows n JOIN old_rows o ON o.id = n.id,
           incident_search_vocabulary(incident_search_entries(n.system_id, n.summary, n.description, n.affected_systems)) v
     WHERE (n.system_id, n.summary, n.description, n.affected_systems)
           IS DISTINCT FROM (o.system_id, o.summary, o.description, o.affected_systems)
     ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO incident_search_terms (system_id, kind, term)
    SELECT DISTINCT n.system_id, v.kind, v.term
      FROM new_rows n,
           incident_search_vocabulary(incident_search_entries(n.system_id, n.summary, n.description, n.affected_systems)) v
     ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER incident_search_terms_ins AFTER INSERT ON incidents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION incident_search_terms_add();
--> statement-breakpoint
CREATE TRIGGER incident_search_terms_upd AFTER UPDATE ON incidents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION incident_search_terms_add();
--> statement-breakpoint
CREATE INDEX "incidents_search_words_gin" ON "incidents" USING gin (incident_search_entries("system_id", "summary", "description", "affected_systems"));
