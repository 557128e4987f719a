-- Replies of the SOC under a system's name (issue 41): the name on the system, and on each comment
-- whether it was written under it. Neither column has a volatile default: no table rewrite.
ALTER TABLE "systems" ADD COLUMN "soc_reply_name" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "as_team" boolean DEFAULT false NOT NULL;
