import type { DerivedSql, DerivedTable, TriggerRef } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/** Keeps `incident_search` row by row; a bulk load switches it off and calls the rebuild. */
export const INCIDENT_SEARCH_TRIGGER = {
  name: 'incidents_search',
  table: 'incidents',
} as const satisfies TriggerRef;
export const INCIDENT_SEARCH_REBUILD = 'incident_search_rebuild';

/** What the table should hold: each incident's lower-cased search text under its system. */
const recount = `SELECT i.system_id, i.id AS incident_id, i.search_text FROM incidents i`;

export const incidentSearchTable: DerivedTable = {
  table: 'incident_search',
  keys: ['system_id', 'incident_id'],
  value: 'text',
  absent: 'NULL',
  sources: ['incidents'],
  recount,
  rebuild: `SELECT ${INCIDENT_SEARCH_REBUILD}()`,
};

/**
 * The text of each incident that a search matches (`incidents.search_text`, lower-cased summary
 * and description), in a narrow table partitioned by system (migration 0036), so that the total
 * of a search counts its matches in few, dense pages (modules/incidents/incident-totals.repository.ts).
 */
export const incidentSearchSql: DerivedSql = {
  name: 'incident search text',
  statements: [
    // An incident that moves to another system moves to another partition: delete and insert.
    `CREATE OR REPLACE FUNCTION incident_search_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.system_id = NEW.system_id AND OLD.search_text = NEW.search_text THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM incident_search WHERE system_id = OLD.system_id AND incident_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO incident_search (system_id, incident_id, text) VALUES (NEW.system_id, NEW.id, NEW.search_text);
  END IF;
  RETURN NULL;
END
$$`,
    // search_text is generated from summary and description, which an UPDATE OF names instead
    ...trigger(
      INCIDENT_SEARCH_TRIGGER,
      'AFTER INSERT OR DELETE OR UPDATE OF system_id, summary, description',
      'FOR EACH ROW EXECUTE FUNCTION incident_search_track()',
    ),
    // Fills the table again (after a bulk load that ran with the trigger disabled).
    `CREATE OR REPLACE FUNCTION ${INCIDENT_SEARCH_REBUILD}() RETURNS void LANGUAGE sql AS $$
  TRUNCATE incident_search;
  INSERT INTO incident_search (system_id, incident_id, text)
  ${recount};
$$`,
  ],
};
