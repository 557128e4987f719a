import type { DerivedSql, DerivedTable } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/** A table of files whose `system_id` is that of the `parent` row its `column` names. */
const FILE_TABLES = [
  { table: 'attachments', parent: 'incidents', column: 'incident_id' },
  { table: 'task_attachments', parent: 'tasks', column: 'task_id' },
] as const;

/**
 * Each file's system as its incident or task has it (the trigger runs on changes of the file, not
 * of its parent); the trigger sets it again on any update of the column.
 */
export const fileSystemTables: DerivedTable[] = FILE_TABLES.map(({ table, parent, column }) => ({
  table,
  keys: ['id'],
  value: 'system_id',
  sources: [parent],
  recount: `SELECT f.id, p.system_id FROM ${table} f JOIN ${parent} p ON p.id = f.${column}`,
  rebuild: `UPDATE ${table} f SET system_id = p.system_id FROM ${parent} p
   WHERE p.id = f.${column} AND f.system_id IS DISTINCT FROM p.system_id`,
}));

/**
 * The per-system storage quota (integrations/storage/storage-quota.ts) sums the sizes of a
 * system's files; the system is kept on each file row, filled by a trigger from the incident or
 * task (whatever the writer gives), so that one index serves the sum without joins.
 */
export const fileSystemIdSql: DerivedSql = {
  name: 'file systems',
  statements: [
    `CREATE OR REPLACE FUNCTION file_system_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- only the branch of the trigger's table reads its parent column
  IF TG_TABLE_NAME = 'attachments' THEN
    NEW.system_id := (SELECT system_id FROM incidents WHERE id = NEW.incident_id);
  ELSE
    NEW.system_id := (SELECT system_id FROM tasks WHERE id = NEW.task_id);
  END IF;
  RETURN NEW;
END $$`,
    ...FILE_TABLES.flatMap(({ table, column }) =>
      trigger(
        { name: `${table}_system`, table },
        `BEFORE INSERT OR UPDATE OF ${column}, system_id`,
        'FOR EACH ROW EXECUTE FUNCTION file_system_id()',
      ),
    ),
  ],
};
