-- The IOC feed (issue 29 §3). Its version per system, raised by a trigger on incidents
-- (db/derived/ioc-feed.ts), makes the ETag of a poll one primary-key lookup per system; the
-- partial index holds the incidents that list IOCs, the only ones the feed reads.
CREATE TABLE "ioc_feed_versions" (
	"system_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "ioc_feed_versions" ADD CONSTRAINT "ioc_feed_versions_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "ioc_feed_versions" ("system_id", "version", "changed_at")
  SELECT "system_id", 1, now() FROM "incidents" WHERE "observed_iocs" <> '[]'::jsonb GROUP BY "system_id";--> statement-breakpoint
CREATE INDEX "incidents_ioc_feed_idx" ON "incidents" USING btree ("system_id","created") WHERE "incidents"."observed_iocs" <> '[]'::jsonb;
