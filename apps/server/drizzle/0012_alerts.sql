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
CREATE TABLE "incident_alert_counts" (
	"incident_id" uuid PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
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
ALTER TABLE "incident_alert_counts" ADD CONSTRAINT "incident_alert_counts_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
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
CREATE UNIQUE INDEX "response_teams_system_name_uq" ON "response_teams" USING btree ("system_id","name");--> statement-breakpoint
-- Alerts per incident (incident_alert_counts), kept by statement-level triggers with transition
-- tables: one grouped upsert per statement, so bulk loads of millions of alerts stay fast.
CREATE FUNCTION alerts_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n)
  SELECT incident_id, count(*) FROM new_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
  ON CONFLICT (incident_id) DO UPDATE SET n = incident_alert_counts.n + EXCLUDED.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION alerts_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE incident_alert_counts c SET n = c.n - d.n
    FROM (SELECT incident_id, count(*) AS n FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id) d
   WHERE c.incident_id = d.incident_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION alerts_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n)
  SELECT incident_id, sum(n) FROM (
    SELECT incident_id, count(*) AS n FROM new_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
    UNION ALL
    SELECT incident_id, -count(*) FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
  ) d
  -- an incident being deleted (its alerts' incident_id set to null) keeps no count row
  WHERE EXISTS (SELECT 1 FROM incidents i WHERE i.id = d.incident_id)
  GROUP BY incident_id HAVING sum(n) <> 0
  ON CONFLICT (incident_id) DO UPDATE SET n = incident_alert_counts.n + EXCLUDED.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER alerts_count_insert AFTER INSERT ON alerts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_count_insert();
--> statement-breakpoint
CREATE TRIGGER alerts_count_delete AFTER DELETE ON alerts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_count_delete();
--> statement-breakpoint
CREATE TRIGGER alerts_count_update AFTER UPDATE ON alerts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_count_update();
