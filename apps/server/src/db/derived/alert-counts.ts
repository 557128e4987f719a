import type { DerivedSql, DerivedTable, TriggerRef } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

export const ALERT_COUNTS_REBUILD = 'alert_counts_rebuild';

const incidentRecount = `SELECT incident_id, count(*) FROM alerts WHERE incident_id IS NOT NULL GROUP BY incident_id`;
const systemRecount = `SELECT system_id, count(*) FROM alerts GROUP BY system_id`;

/** The versions beside the counts move with every change and cannot be recounted: only `n` is compared. */
export const incidentAlertCountsTable: DerivedTable = {
  table: 'incident_alert_counts',
  keys: ['incident_id'],
  value: 'n',
  sources: ['alerts'],
  recount: incidentRecount,
  rebuild: `SELECT ${ALERT_COUNTS_REBUILD}()`,
};

export const systemAlertCountsTable: DerivedTable = {
  table: 'system_alert_counts',
  keys: ['system_id'],
  value: 'n',
  sources: ['alerts'],
  recount: systemRecount,
  rebuild: `SELECT ${ALERT_COUNTS_REBUILD}()`,
};

const alertsTrigger = (name: string): TriggerRef => ({ name, table: 'alerts' });
const alertTagsTrigger = (name: string): TriggerRef => ({ name, table: 'alert_tags' });

/**
 * Alerts per incident (incident_alert_counts) and per system (system_alert_counts), kept by
 * statement-level triggers with transition tables: one grouped upsert per statement, so bulk loads
 * of millions of alerts stay fast. Cached alert pages (modules/alerts/alerts.cache.ts) are
 * versioned by the `version` of these rows: the triggers raise the version of every incident and
 * system whose alerts or alert tags a statement inserts, updates or deletes, in the writer's
 * transaction and under the count row's lock, so versions of one row are committed in the order
 * they are raised. Updates touch the count rows even when no count moves. Every trigger locks its
 * count rows in key order, so that two transactions changing alerts of several incidents or
 * systems cannot wait for each other in opposite orders.
 */
export const alertCountsSql: DerivedSql = {
  name: 'alert counts',
  statements: [
    `CREATE OR REPLACE FUNCTION alerts_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT incident_id, count(*), 1 FROM new_rows WHERE incident_id IS NOT NULL GROUP BY incident_id ORDER BY incident_id
  ON CONFLICT (incident_id) DO UPDATE
    SET n = incident_alert_counts.n + EXCLUDED.n, version = incident_alert_counts.version + 1;
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION alerts_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM incident_alert_counts c
   WHERE c.incident_id IN (SELECT incident_id FROM old_rows) ORDER BY c.incident_id FOR UPDATE;
  UPDATE incident_alert_counts c SET n = c.n - d.n, version = c.version + 1
    FROM (SELECT incident_id, count(*) AS n FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id) d
   WHERE c.incident_id = d.incident_id;
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION alerts_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT incident_id, sum(n), 1 FROM (
    SELECT incident_id, count(*) AS n FROM new_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
    UNION ALL
    SELECT incident_id, -count(*) FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
  ) d
  -- an incident being deleted (its alerts' incident_id set to null) keeps no count row
  WHERE EXISTS (SELECT 1 FROM incidents i WHERE i.id = d.incident_id)
  GROUP BY incident_id ORDER BY incident_id
  ON CONFLICT (incident_id) DO UPDATE
    SET n = incident_alert_counts.n + EXCLUDED.n, version = incident_alert_counts.version + 1;
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION alerts_system_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT system_id, count(*), 1 FROM new_rows GROUP BY system_id ORDER BY system_id
  ON CONFLICT (system_id) DO UPDATE
    SET n = system_alert_counts.n + EXCLUDED.n, version = system_alert_counts.version + 1;
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION alerts_system_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM system_alert_counts c
   WHERE c.system_id IN (SELECT system_id FROM old_rows) ORDER BY c.system_id FOR UPDATE;
  UPDATE system_alert_counts c SET n = c.n - d.n, version = c.version + 1
    FROM (SELECT system_id, count(*) AS n FROM old_rows GROUP BY system_id) d
   WHERE c.system_id = d.system_id;
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION alerts_system_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT system_id, sum(n), 1 FROM (
    SELECT system_id, count(*) AS n FROM new_rows GROUP BY system_id
    UNION ALL
    SELECT system_id, -count(*) FROM old_rows GROUP BY system_id
  ) d
  -- a system being deleted (cascading to its alerts) keeps no count row
  WHERE EXISTS (SELECT 1 FROM systems s WHERE s.id = d.system_id)
  GROUP BY system_id ORDER BY system_id
  ON CONFLICT (system_id) DO UPDATE
    SET n = system_alert_counts.n + EXCLUDED.n, version = system_alert_counts.version + 1;
  RETURN NULL;
END $$`,
    // An alert's tags: their incidents' and systems' versions move (the transition table is
    // `changed` for both the insert and the delete trigger).
    `CREATE OR REPLACE FUNCTION alert_tags_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT DISTINCT a.incident_id, 0, 1 FROM alerts a
   WHERE a.id IN (SELECT alert_id FROM changed) AND a.incident_id IS NOT NULL ORDER BY 1
  ON CONFLICT (incident_id) DO UPDATE SET version = incident_alert_counts.version + 1;
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT DISTINCT a.system_id, 0, 1 FROM alerts a WHERE a.id IN (SELECT alert_id FROM changed) ORDER BY 1
  ON CONFLICT (system_id) DO UPDATE SET version = system_alert_counts.version + 1;
  RETURN NULL;
END $$`,
    // An update of tag rows moves the versions of the alerts they leave as well as of those they reach.
    `CREATE OR REPLACE FUNCTION alert_tags_versions_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT DISTINCT a.incident_id, 0, 1 FROM alerts a
   WHERE a.id IN (SELECT alert_id FROM changed UNION SELECT alert_id FROM before_change)
     AND a.incident_id IS NOT NULL ORDER BY 1
  ON CONFLICT (incident_id) DO UPDATE SET version = incident_alert_counts.version + 1;
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT DISTINCT a.system_id, 0, 1 FROM alerts a
   WHERE a.id IN (SELECT alert_id FROM changed UNION SELECT alert_id FROM before_change) ORDER BY 1
  ON CONFLICT (system_id) DO UPDATE SET version = system_alert_counts.version + 1;
  RETURN NULL;
END $$`,
    ...trigger(
      alertsTrigger('alerts_count_insert'),
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts_count_insert()',
    ),
    ...trigger(
      alertsTrigger('alerts_count_delete'),
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts_count_delete()',
    ),
    ...trigger(
      alertsTrigger('alerts_count_update'),
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts_count_update()',
    ),
    ...trigger(
      alertsTrigger('alerts_system_count_insert'),
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts_system_count_insert()',
    ),
    ...trigger(
      alertsTrigger('alerts_system_count_delete'),
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts_system_count_delete()',
    ),
    ...trigger(
      alertsTrigger('alerts_system_count_update'),
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts_system_count_update()',
    ),
    ...trigger(
      alertTagsTrigger('alert_tags_versions_insert'),
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions()',
    ),
    ...trigger(
      alertTagsTrigger('alert_tags_versions_delete'),
      'AFTER DELETE',
      'REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions()',
    ),
    ...trigger(
      alertTagsTrigger('alert_tags_versions_update'),
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS before_change NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions_moved()',
    ),
    // Recounts both tables, in key order as the triggers lock them: a row whose count changes gets
    // a new version (cached pages showed the wrong count), one whose alerts are all gone falls to 0.
    `CREATE OR REPLACE FUNCTION ${ALERT_COUNTS_REBUILD}() RETURNS void LANGUAGE sql AS $$
  UPDATE incident_alert_counts c SET n = 0, version = c.version + 1
   WHERE c.n <> 0 AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.incident_id = c.incident_id);
  INSERT INTO incident_alert_counts AS c (incident_id, n, version)
  SELECT r.*, 1 FROM (${incidentRecount}) r ORDER BY 1
  ON CONFLICT (incident_id) DO UPDATE SET n = excluded.n, version = c.version + 1 WHERE c.n <> excluded.n;
  UPDATE system_alert_counts c SET n = 0, version = c.version + 1
   WHERE c.n <> 0 AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.system_id = c.system_id);
  INSERT INTO system_alert_counts AS c (system_id, n, version)
  SELECT r.*, 1 FROM (${systemRecount}) r ORDER BY 1
  ON CONFLICT (system_id) DO UPDATE SET n = excluded.n, version = c.version + 1 WHERE c.n <> excluded.n;
$$`,
  ],
};
