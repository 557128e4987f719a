-- sign-in flows in progress (10 minutes) and tickets (60 seconds) are not bound to a browser: they are dropped, the user signs in again
DELETE FROM "login_tickets";--> statement-breakpoint
DELETE FROM "oidc_login_states";--> statement-breakpoint
ALTER TABLE "login_tickets" ADD COLUMN "browser_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_login_states" ADD COLUMN "browser_hash" text NOT NULL;
