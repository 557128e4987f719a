CREATE TABLE "derived_state" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"checksum" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "derived_state_one_row" CHECK ("derived_state"."id")
);
