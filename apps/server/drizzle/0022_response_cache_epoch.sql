CREATE TABLE "cache_epoch" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "incident_counts_dim_value_idx" ON "incident_counts" USING btree ("dim","value","system_id");--> statement-breakpoint
-- Cached incident cards and list pages (modules/incidents/response-cache.ts) are versioned by the
-- newest events id and by this counter. Triggers raise it, in the writer's transaction, for every
-- change they show that writes no events row: files, links, and the names of systems, services,
-- issue types, categories, resolutions and users. One row, so its lock orders those writers.
ALTER TABLE "cache_epoch" ADD CONSTRAINT "cache_epoch_one_row" CHECK ("id");
--> statement-breakpoint
INSERT INTO "cache_epoch" ("id", "n") VALUES (true, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION cache_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_epoch SET n = n + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER attachments_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON attachments
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER incident_links_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON incident_links
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER systems_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON systems
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER services_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON services
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER issue_types_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON issue_types
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER categories_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER resolutions_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON resolutions
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER users_cache_epoch AFTER UPDATE OF username, first_name, last_name OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
-- inserts and updates of incidents and inserts of comments write events rows; removals do not
CREATE TRIGGER incidents_cache_epoch AFTER DELETE OR TRUNCATE ON incidents
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER comments_cache_epoch AFTER UPDATE OR DELETE OR TRUNCATE ON comments
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
