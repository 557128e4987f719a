-- A search matches the incident's summary and description lower-cased once on write
-- (search_text) with LIKE instead of ILIKE over the two columns: ILIKE lower-cases the text of
-- every candidate that the trigram index returns, which made counting the matches of a common
-- term (10,001 candidates) cost 4-5 µs a row. The trigram index moves to the stored column.
DROP INDEX "incidents_search_trgm";--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(summary || ' ' || description)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "incidents_search_text_trgm" ON "incidents" USING gin ("search_text" gin_trgm_ops);