CREATE TABLE "asset_software" (
	"id" serial PRIMARY KEY NOT NULL,
	"asset_id" integer NOT NULL,
	"name" text NOT NULL,
	"vendor" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"install_time" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "asset_software" ADD CONSTRAINT "asset_software_asset_id_cmdb_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."cmdb_assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asset_software_asset_name_idx" ON "asset_software" USING btree ("asset_id","name","id");--> statement-breakpoint
CREATE INDEX "cmdb_assets_name_idx" ON "cmdb_assets" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "cmdb_assets_last_seen_idx" ON "cmdb_assets" USING btree ("last_seen_at","id");--> statement-breakpoint
CREATE INDEX "cmdb_assets_os_idx" ON "cmdb_assets" USING btree ("os");--> statement-breakpoint
CREATE INDEX "cmdb_assets_search_trgm" ON "cmdb_assets" USING gin (("name" || ' ' || "ip_address" || ' ' || "fqdn") gin_trgm_ops);