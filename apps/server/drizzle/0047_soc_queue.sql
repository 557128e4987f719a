-- The SOC assignee and the triage queue (issue 41): three columns of incidents without a volatile
-- default (no rewrite); customer_comment_at and reopened are kept by the triggers of
-- db/derived/soc-queue.ts. The queue's indexes cover only the open incidents. incidents is a big
-- table: run the CONCURRENTLY statement of the upgrade notes (incidents_queue_sla_idx) first and
-- its statement here is a no-op; the two indexes of the new columns can only be built here.
-- soc_assignee_id is of the users' integer ids.
-- squawk-ignore-file prefer-bigint-over-int
ALTER TABLE "incidents" ADD COLUMN "soc_assignee_id" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "customer_comment_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "reopened" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- the column is new and all null: the key's check is one sequential read of incidents under a
-- lock that holds writes back meanwhile (seconds on a million rows; upgrade notes say so)
-- squawk-ignore adding-foreign-key-constraint, constraint-missing-not-valid
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_soc_assignee_id_users_id_fk" FOREIGN KEY ("soc_assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX IF NOT EXISTS "incidents_queue_sla_idx" ON "incidents" USING btree ("sla","key") WHERE "incidents"."status" IN ('waiting_for_customer', 'waiting_for_support', 'work_in_progress');--> statement-breakpoint
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX IF NOT EXISTS "incidents_queue_system_sla_idx" ON "incidents" USING btree ("system_id","sla","key","status","notified_at","soc_assignee_id","reopened","customer_comment_at") WHERE "incidents"."status" IN ('waiting_for_customer', 'waiting_for_support', 'work_in_progress');--> statement-breakpoint
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX IF NOT EXISTS "incidents_soc_assignee_idx" ON "incidents" USING btree ("soc_assignee_id","sla","key") WHERE "incidents"."status" IN ('waiting_for_customer', 'waiting_for_support', 'work_in_progress');