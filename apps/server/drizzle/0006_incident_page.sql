CREATE TABLE "incident_links" (
	"incident_id" uuid NOT NULL,
	"related_id" uuid NOT NULL,
	CONSTRAINT "incident_links_incident_id_related_id_pk" PRIMARY KEY("incident_id","related_id")
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "locale" text DEFAULT 'ru' NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "notify" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "author_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "mail_message_id" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "gossopka_processing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "gossopka_error" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "activity_detected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "observed_iocs" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "incident_links" ADD CONSTRAINT "incident_links_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_links" ADD CONSTRAINT "incident_links_related_id_incidents_id_fk" FOREIGN KEY ("related_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_links_related_idx" ON "incident_links" USING btree ("related_id");--> statement-breakpoint
CREATE UNIQUE INDEX "comments_mail_message_uq" ON "comments" USING btree ("incident_id","mail_message_id") WHERE "comments"."mail_message_id" IS NOT NULL;