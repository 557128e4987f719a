-- Text totals stop at 10,000 and are counted over the incidents (the trigram index
-- incidents_search_trgm finds the matches): the index of words (0025, 0026) and the count table's
-- summary and host dimensions (0026), which only made those totals exact, go.
DROP TRIGGER IF EXISTS incident_search_terms_ins ON incidents;--> statement-breakpoint
DROP TRIGGER IF EXISTS incident_search_terms_upd ON incidents;--> statement-breakpoint
DROP TABLE "incident_search_terms" CASCADE;--> statement-breakpoint
DROP INDEX "incident_counts_text_trgm";--> statement-breakpoint
DROP INDEX "incidents_search_words_gin";--> statement-breakpoint
DROP INDEX "incidents_long_summary_idx";--> statement-breakpoint
DROP INDEX "incidents_long_hosts_idx";--> statement-breakpoint
DROP FUNCTION incident_search_terms_add();--> statement-breakpoint
DROP FUNCTION incident_search_terms_rebuild();--> statement-breakpoint
DROP FUNCTION incident_search_vocabulary(text[]);--> statement-breakpoint
DROP FUNCTION incident_search_entries(integer, text, text);--> statement-breakpoint
-- incident_count_keys loses these dimensions where it is declared (db/derived/incident-counts.ts),
-- which the start applies right after the migrations.
DROP FUNCTION incident_hosts_text(text[]);--> statement-breakpoint
DELETE FROM incident_counts WHERE dim IN ('summary', 'hosts', 'summary_long', 'hosts_long');
