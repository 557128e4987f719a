-- ATT&CK bundles loaded with `npm run admin -- attack import` (compact form with descriptions):
-- the newest row is the ATT&CK data of every instance.
CREATE TABLE "attack_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" text,
	"source" text NOT NULL,
	"techniques" integer NOT NULL,
	"data" jsonb NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
