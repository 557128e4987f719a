CREATE TABLE "cmdb_assets" (
	"id" serial PRIMARY KEY NOT NULL,
	"cmdb_id" text NOT NULL,
	"system_id" integer NOT NULL,
	"name" text NOT NULL,
	"asset_type" text NOT NULL,
	"os" text DEFAULT '' NOT NULL,
	"ip_address" text DEFAULT '' NOT NULL,
	"fqdn" text DEFAULT '' NOT NULL,
	"mac_address" text DEFAULT '' NOT NULL,
	"criticality" text DEFAULT 'medium' NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" uuid NOT NULL,
	"cmdb_id" text NOT NULL,
	"system_id" integer NOT NULL,
	"name" text NOT NULL,
	"asset_type" text NOT NULL,
	"os" text DEFAULT '' NOT NULL,
	"ip_address" text DEFAULT '' NOT NULL,
	"fqdn" text DEFAULT '' NOT NULL,
	"criticality" text DEFAULT 'medium' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_source_event_buckets" (
	"log_source_id" integer NOT NULL,
	"system_id" integer NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"events" bigint NOT NULL,
	CONSTRAINT "log_source_event_buckets_log_source_id_bucket_start_pk" PRIMARY KEY("log_source_id","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "log_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"system_id" integer NOT NULL,
	"name" text NOT NULL,
	"source_type" text NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"silence_threshold_minutes" integer DEFAULT 60 NOT NULL,
	"last_event_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cmdb_assets" ADD CONSTRAINT "cmdb_assets_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_snapshots" ADD CONSTRAINT "incident_snapshots_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_snapshots" ADD CONSTRAINT "incident_snapshots_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_source_event_buckets" ADD CONSTRAINT "log_source_event_buckets_log_source_id_log_sources_id_fk" FOREIGN KEY ("log_source_id") REFERENCES "public"."log_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_source_event_buckets" ADD CONSTRAINT "log_source_event_buckets_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_sources" ADD CONSTRAINT "log_sources_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cmdb_assets_cmdb_id_uq" ON "cmdb_assets" USING btree ("cmdb_id");--> statement-breakpoint
CREATE INDEX "cmdb_assets_system_name_idx" ON "cmdb_assets" USING btree ("system_id","name","id");--> statement-breakpoint
CREATE INDEX "cmdb_assets_system_last_seen_idx" ON "cmdb_assets" USING btree ("system_id","last_seen_at");--> statement-breakpoint
CREATE UNIQUE INDEX "incident_snapshots_incident_cmdb_uq" ON "incident_snapshots" USING btree ("incident_id","cmdb_id");--> statement-breakpoint
CREATE INDEX "incident_snapshots_cmdb_idx" ON "incident_snapshots" USING btree ("cmdb_id","created_at","incident_id");--> statement-breakpoint
CREATE INDEX "log_source_event_buckets_system_idx" ON "log_source_event_buckets" USING btree ("system_id","bucket_start","events");--> statement-breakpoint
CREATE INDEX "log_sources_system_name_idx" ON "log_sources" USING btree ("system_id","name","id");--> statement-breakpoint
CREATE INDEX "log_sources_last_event_idx" ON "log_sources" USING btree ("last_event_at");