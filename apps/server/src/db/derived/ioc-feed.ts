import type { DerivedSql } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/** Has IOCs: the condition of incidents_ioc_feed_idx, on a row alias. */
const listsIocs = (row: string) => `${row}.observed_iocs <> '[]'::jsonb`;

const OPERATIONS = { inserted: 'INSERT', updated: 'UPDATE', deleted: 'DELETE' } as const;

/**
 * A function and trigger, on `timing` of incidents with transition tables `referencing`, that
 * move the version of each system that `systems` (a query of `system_id`s over them) names.
 * Systems are locked in id order, so two writers never wait on each other in a circle.
 */
const bumpOn = (event: keyof typeof OPERATIONS, referencing: string, systems: string) => {
  const fn = `ioc_feed_bump_${event}`;
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ioc_feed_versions AS v (system_id, version, changed_at)
  SELECT s.system_id, 1, clock_timestamp() FROM (${systems}) s ORDER BY s.system_id
  ON CONFLICT (system_id) DO UPDATE SET version = v.version + 1, changed_at = clock_timestamp();
  RETURN NULL;
END $$`,
    ...trigger(
      { name: `incidents_ioc_feed_${event.slice(0, 3)}`, table: 'incidents' },
      `AFTER ${OPERATIONS[event]}`,
      `REFERENCING ${referencing}\n  FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    ),
  ];
};

/**
 * Versions of the IOC feed per system (schema/ioc-feed.ts). Statement-level, set-wise: a change
 * moves the version of each system it touches once, and only a change the feed shows (IOCs,
 * status, system, creation time) of an incident that lists IOCs before or after it, so that the
 * many writes of incidents without IOCs, and those that only touch `updated` or the assignee,
 * take no lock on the row.
 */
export const iocFeedSql: DerivedSql = {
  name: 'IOC feed versions',
  statements: [
    ...bumpOn(
      'inserted',
      'NEW TABLE AS new_rows',
      `SELECT DISTINCT n.system_id FROM new_rows n WHERE ${listsIocs('n')}`,
    ),
    ...bumpOn(
      'updated',
      'OLD TABLE AS old_rows NEW TABLE AS new_rows',
      `SELECT DISTINCT unnest(ARRAY[o.system_id, n.system_id]) AS system_id
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (${listsIocs('o')} OR ${listsIocs('n')})
       AND (o.observed_iocs, o.status, o.system_id, o.created)
           IS DISTINCT FROM (n.observed_iocs, n.status, n.system_id, n.created)`,
    ),
    ...bumpOn(
      'deleted',
      'OLD TABLE AS old_rows',
      `SELECT DISTINCT o.system_id FROM old_rows o WHERE ${listsIocs('o')}`,
    ),
    `CREATE OR REPLACE FUNCTION ioc_feed_bump_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ioc_feed_versions SET version = version + 1, changed_at = clock_timestamp();
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'incidents_ioc_feed_truncate', table: 'incidents' },
      'AFTER TRUNCATE',
      'FOR EACH STATEMENT EXECUTE FUNCTION ioc_feed_bump_truncated()',
    ),
  ],
};
