-- The staff to assign incidents to (GET /analyst/staff/, issue 41): a partial index over the few
-- active analysts and administrators, so that the list never reads the customers' rows. users is
-- small next to incidents: the short lock of a plain build is taken.
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX IF NOT EXISTS "users_staff_idx" ON "users" USING btree (lower("username"),"id") WHERE "users"."role" <> 'customer' AND "users"."is_active";
