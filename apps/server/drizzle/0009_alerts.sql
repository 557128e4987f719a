CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"system_id" integer NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT 'default' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_tags" (
	"alert_id" uuid NOT NULL,
	"tag_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "alert_tags_alert_id_tag_id_pk" PRIMARY KEY("alert_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"system_id" integer NOT NULL,
	"incident_id" uuid,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rule" text DEFAULT '' NOT NULL,
	"source_tag" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"priority" text DEFAULT 'medium' NOT NULL,
	"state" text DEFAULT 'unclassified' NOT NULL,
	"classification_details" text DEFAULT '' NOT NULL,
	"group_no" bigint,
	"platform" text NOT NULL,
	"assignee_id" integer,
	"response_team_id" integer,
	"affected_assets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"severity_rank" smallint GENERATED ALWAYS AS (CASE severity WHEN 'High' THEN 3 WHEN 'Medium' THEN 2 ELSE 1 END) STORED NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"system_id" integer,
	"name" text NOT NULL,
	"field" text NOT NULL,
	"url_template" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "misconfigurations" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" uuid NOT NULL,
	"system_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"recommendation" text DEFAULT '' NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"asset" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "response_teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"system_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_tags" ADD CONSTRAINT "alert_tags_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_tags" ADD CONSTRAINT "alert_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_response_team_id_response_teams_id_fk" FOREIGN KEY ("response_team_id") REFERENCES "public"."response_teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_templates" ADD CONSTRAINT "link_templates_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "misconfigurations" ADD CONSTRAINT "misconfigurations_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "misconfigurations" ADD CONSTRAINT "misconfigurations_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "response_teams" ADD CONSTRAINT "response_teams_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tags_system_lower_name_uq" ON "tags" USING btree ("system_id",lower("name"));--> statement-breakpoint
CREATE INDEX "tags_name_trgm" ON "tags" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "alert_tags_tag_idx" ON "alert_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "alerts_incident_created_idx" ON "alerts" USING btree ("incident_id","created_time","id");--> statement-breakpoint
CREATE INDEX "alerts_system_created_idx" ON "alerts" USING btree ("system_id","created_time","id");--> statement-breakpoint
CREATE INDEX "alerts_created_idx" ON "alerts" USING btree ("created_time","id");--> statement-breakpoint
CREATE INDEX "alerts_system_updated_idx" ON "alerts" USING btree ("system_id","updated_time","id");--> statement-breakpoint
CREATE INDEX "alerts_group_idx" ON "alerts" USING btree ("group_no","created_time") WHERE "alerts"."group_no" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alerts_response_team_idx" ON "alerts" USING btree ("response_team_id");--> statement-breakpoint
CREATE INDEX "alerts_assignee_idx" ON "alerts" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "alerts_title_trgm" ON "alerts" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "link_templates_system_idx" ON "link_templates" USING btree ("system_id");--> statement-breakpoint
CREATE INDEX "misconfigurations_incident_idx" ON "misconfigurations" USING btree ("incident_id","created","id");--> statement-breakpoint
CREATE UNIQUE INDEX "response_teams_system_name_uq" ON "response_teams" USING btree ("system_id","name");