CREATE TABLE "report_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_id" integer,
	"system_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"start_time" text NOT NULL,
	"period" text NOT NULL,
	"crontab" jsonb NOT NULL,
	"time_zone" text DEFAULT 'Europe/Moscow' NOT NULL,
	"language" text DEFAULT 'ru' NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"filename" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"schedule_id" integer,
	"created_by_id" integer,
	"system_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"system_label" text DEFAULT '' NOT NULL,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"language" text DEFAULT 'ru' NOT NULL,
	"time_zone" text DEFAULT 'Europe/Moscow' NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_finish" timestamp with time zone NOT NULL,
	"storage_key" text,
	"size" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"mailed_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_schedule_id_report_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_schedules_next_run_idx" ON "report_schedules" USING btree ("next_run_at") WHERE "report_schedules"."next_run_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "report_schedules_created_idx" ON "report_schedules" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "report_schedules_systems_gin" ON "report_schedules" USING gin ("system_ids");--> statement-breakpoint
CREATE INDEX "reports_ready_created_idx" ON "reports" USING btree ("created","id") WHERE "reports"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "reports_ready_filename_idx" ON "reports" USING btree ("filename","id") WHERE "reports"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "reports_ready_size_idx" ON "reports" USING btree ("size","id") WHERE "reports"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "reports_systems_gin" ON "reports" USING gin ("system_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_schedule_slot_uq" ON "reports" USING btree ("schedule_id","period_finish") WHERE "reports"."schedule_id" IS NOT NULL;