-- Personal API tokens always expire (issue 25): those without an expiry get one 90 days from now,
-- and none lives longer than a year from now; service tokens keep their own (optional) expiry.
UPDATE "service_tokens" SET "expires_at" = now() + interval '90 days'
 WHERE "kind" = 'personal' AND "expires_at" IS NULL;--> statement-breakpoint
UPDATE "service_tokens" SET "expires_at" = now() + interval '365 days'
 WHERE "kind" = 'personal' AND "expires_at" > now() + interval '365 days';--> statement-breakpoint
ALTER TABLE "service_tokens" ADD CONSTRAINT "service_tokens_personal_expires_ck" CHECK ("service_tokens"."kind" <> 'personal' OR "service_tokens"."expires_at" IS NOT NULL);
