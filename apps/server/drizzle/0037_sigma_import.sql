-- Sigma rule import (issue 30): where a rule came from, its authors, Sigma status, dates, false
-- positives and the YAML as imported. Provider rules keep source NULL and the defaults.
ALTER TABLE "rules" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "author" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "source_status" text;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "authored_on" text;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "modified_on" text;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "false_positives" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "source_yaml" text;