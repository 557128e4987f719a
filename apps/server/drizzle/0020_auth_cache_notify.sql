CREATE INDEX "refresh_tokens_family_live_idx" ON "refresh_tokens" USING btree ("family_id","expires_at") WHERE "refresh_tokens"."revoked_at" IS NULL;--> statement-breakpoint
-- The in-process auth cache (plugins/auth-cache.ts) keeps what loadAuthUser read: a user's name,
-- role and active flag, their systems, and whether a session's refresh tokens are live. Any
-- change of those is published on commit on 'soc_auth' as the comma-separated ids of the users
-- concerned ('*' for more than 500, so that a payload stays far below 8000 bytes); every instance
-- then forgets them. Statement-level triggers with transition tables: one NOTIFY per statement.
CREATE FUNCTION auth_notify(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) > 500 THEN
    PERFORM pg_notify('soc_auth', '*');
  ELSIF cardinality(ids) > 0 THEN
    PERFORM pg_notify('soc_auth', array_to_string(ids, ','));
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION auth_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('soc_auth', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- last_login_at, TOTP steps and password hashes change often and are not read by the auth check
CREATE FUNCTION users_auth_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT o.id FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
     WHERE n.id IS NULL OR (n.username, n.role, n.is_active) IS DISTINCT FROM (o.username, o.role, o.is_active)
    UNION
    SELECT n.id FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id)
    LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION users_auth_notify_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(SELECT DISTINCT id FROM old_rows LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_auth_notify_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_auth_notify_update();
--> statement-breakpoint
CREATE TRIGGER users_auth_notify_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_auth_notify_delete();
--> statement-breakpoint
CREATE TRIGGER users_auth_notify_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_all();
--> statement-breakpoint
CREATE FUNCTION user_systems_auth_notify_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(SELECT DISTINCT user_id FROM new_rows LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION user_systems_auth_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION user_systems_auth_notify_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(SELECT DISTINCT user_id FROM old_rows LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_systems_auth_notify_insert AFTER INSERT ON user_systems REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_systems_auth_notify_insert();
--> statement-breakpoint
CREATE TRIGGER user_systems_auth_notify_update AFTER UPDATE ON user_systems REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_systems_auth_notify_update();
--> statement-breakpoint
CREATE TRIGGER user_systems_auth_notify_delete AFTER DELETE ON user_systems REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_systems_auth_notify_delete();
--> statement-breakpoint
CREATE TRIGGER user_systems_auth_notify_truncate AFTER TRUNCATE ON user_systems
  FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_all();
--> statement-breakpoint
-- Only a token that was live can end a session by changing: marking a token used on rotation, or
-- deleting tokens that were already revoked or expired, publishes nothing. A new token (INSERT)
-- never makes a session less alive.
CREATE FUNCTION refresh_tokens_auth_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT DISTINCT o.user_id FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
     WHERE o.revoked_at IS NULL AND o.expires_at > now()
       AND (n.id IS NULL OR (n.user_id, n.family_id, n.revoked_at, n.expires_at)
                            IS DISTINCT FROM (o.user_id, o.family_id, o.revoked_at, o.expires_at))
    LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION refresh_tokens_auth_notify_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT DISTINCT user_id FROM old_rows WHERE revoked_at IS NULL AND expires_at > now() LIMIT 501));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_auth_notify_update AFTER UPDATE ON refresh_tokens REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_auth_notify_update();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_auth_notify_delete AFTER DELETE ON refresh_tokens REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_auth_notify_delete();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_auth_notify_truncate AFTER TRUNCATE ON refresh_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_all();
