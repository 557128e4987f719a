import type { DerivedSql } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

const AUTH_NOTIFY_ALL = 'FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_all()';

/**
 * The in-process auth cache (plugins/auth-cache.ts) keeps what loadAuthUser read: a user's name,
 * role and active flag, their systems, and whether a session's refresh tokens are live. Any
 * change of those is published on commit on 'soc_auth' as the comma-separated ids of the users
 * concerned ('*' for more than 500, so that a payload stays far below 8000 bytes); every instance
 * then forgets them. Statement-level triggers with transition tables: one NOTIFY per statement.
 */
export const authNotifySql: DerivedSql = {
  name: 'auth cache notifications',
  statements: [
    `CREATE OR REPLACE FUNCTION auth_notify(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) > 500 THEN
    PERFORM pg_notify('soc_auth', '*');
  ELSIF cardinality(ids) > 0 THEN
    PERFORM pg_notify('soc_auth', array_to_string(ids, ','));
  END IF;
END $$`,
    `CREATE OR REPLACE FUNCTION auth_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('soc_auth', '*');
  RETURN NULL;
END $$`,
    // last_login_at, TOTP steps and password hashes change often and are not read by the auth check
    `CREATE OR REPLACE FUNCTION users_auth_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT o.id FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
     WHERE n.id IS NULL OR (n.username, n.role, n.is_active) IS DISTINCT FROM (o.username, o.role, o.is_active)
    UNION
    SELECT n.id FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id)
    LIMIT 501));
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION users_auth_notify_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(SELECT DISTINCT id FROM old_rows LIMIT 501));
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'users_auth_notify_update', table: 'users' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION users_auth_notify_update()',
    ),
    ...trigger(
      { name: 'users_auth_notify_delete', table: 'users' },
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS old_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION users_auth_notify_delete()',
    ),
    ...trigger({ name: 'users_auth_notify_truncate', table: 'users' }, 'AFTER TRUNCATE', AUTH_NOTIFY_ALL),
    `CREATE OR REPLACE FUNCTION user_systems_auth_notify_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(SELECT DISTINCT user_id FROM new_rows LIMIT 501));
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION user_systems_auth_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows LIMIT 501));
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION user_systems_auth_notify_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(SELECT DISTINCT user_id FROM old_rows LIMIT 501));
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'user_systems_auth_notify_insert', table: 'user_systems' },
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION user_systems_auth_notify_insert()',
    ),
    ...trigger(
      { name: 'user_systems_auth_notify_update', table: 'user_systems' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION user_systems_auth_notify_update()',
    ),
    ...trigger(
      { name: 'user_systems_auth_notify_delete', table: 'user_systems' },
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS old_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION user_systems_auth_notify_delete()',
    ),
    ...trigger(
      { name: 'user_systems_auth_notify_truncate', table: 'user_systems' },
      'AFTER TRUNCATE',
      AUTH_NOTIFY_ALL,
    ),
    // Only a token that was live can end a session by changing: marking a token used on rotation,
    // or deleting tokens that were already revoked or expired, publishes nothing. A new token
    // (INSERT) never makes a session less alive.
    `CREATE OR REPLACE FUNCTION refresh_tokens_auth_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT DISTINCT o.user_id FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
     WHERE o.revoked_at IS NULL AND o.expires_at > now()
       AND (n.id IS NULL OR (n.user_id, n.family_id, n.revoked_at, n.expires_at)
                            IS DISTINCT FROM (o.user_id, o.family_id, o.revoked_at, o.expires_at))
    LIMIT 501));
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION refresh_tokens_auth_notify_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_notify(ARRAY(
    SELECT DISTINCT user_id FROM old_rows WHERE revoked_at IS NULL AND expires_at > now() LIMIT 501));
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'refresh_tokens_auth_notify_update', table: 'refresh_tokens' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_auth_notify_update()',
    ),
    ...trigger(
      { name: 'refresh_tokens_auth_notify_delete', table: 'refresh_tokens' },
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS old_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_auth_notify_delete()',
    ),
    ...trigger(
      { name: 'refresh_tokens_auth_notify_truncate', table: 'refresh_tokens' },
      'AFTER TRUNCATE',
      AUTH_NOTIFY_ALL,
    ),
  ],
};
