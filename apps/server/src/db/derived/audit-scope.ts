import type { DerivedSql } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/**
 * Audit scope: the systems an entry concerns, so that customers can read their systems' entries.
 * Filled on insert when the writer gives none.
 */
export const auditScopeSql: DerivedSql = {
  name: 'audit scope',
  statements: [
    `CREATE OR REPLACE FUNCTION audit_scope(object_type text, object_id text, actor integer) RETURNS integer[]
  LANGUAGE sql STABLE AS $$
  SELECT coalesce(CASE
    WHEN object_type = 'incident' AND object_id ~ '^[0-9]{1,18}$' THEN
      (SELECT ARRAY[i.system_id] FROM incidents i WHERE i.key = object_id::bigint)
    WHEN object_type = 'report' AND object_id ~ '^[0-9]{1,9}$' THEN
      (SELECT r.system_ids FROM reports r WHERE r.id = object_id::int)
    WHEN object_type = 'report_task' AND object_id ~ '^[0-9]{1,9}$' THEN
      (SELECT s.system_ids FROM report_schedules s WHERE s.id = object_id::int)
    WHEN object_type = 'user' THEN
      (SELECT array_agg(us.system_id ORDER BY us.system_id) FROM user_systems us JOIN users u ON u.id = us.user_id
        WHERE u.role = 'customer'
          AND us.user_id = CASE WHEN object_id ~ '^[0-9]{1,9}$' THEN object_id::int ELSE actor END)
    -- anything else (sessions, document comments): the systems of the customer who acted
    ELSE
      (SELECT array_agg(us.system_id ORDER BY us.system_id) FROM user_systems us JOIN users u ON u.id = us.user_id
        WHERE u.role = 'customer' AND us.user_id = actor)
  END, '{}'::int[])
$$`,
    `CREATE OR REPLACE FUNCTION audit_log_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(NEW.system_ids) = 0 THEN
    NEW.system_ids := audit_scope(NEW.object_type, NEW.object_id, NEW.user_id);
  END IF;
  RETURN NEW;
END $$`,
    ...trigger(
      { name: 'audit_log_scope', table: 'audit_log' },
      'BEFORE INSERT',
      'FOR EACH ROW EXECUTE FUNCTION audit_log_scope()',
    ),
  ],
};
