-- The recommendations grouped by title and a group's items (issue 40). A small table: the
-- migrator's transaction builds them; where it is large, run the CONCURRENTLY statements of the
-- upgrade notes first and these are no-ops.
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX IF NOT EXISTS "misconfigurations_system_title_idx" ON "misconfigurations" USING btree ("system_id","title");--> statement-breakpoint
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX IF NOT EXISTS "misconfigurations_title_idx" ON "misconfigurations" USING btree ("title");
