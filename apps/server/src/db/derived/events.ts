import type { DerivedSql, TriggerRef } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/** Write the live events of incidents and comments; a bulk load of history switches them off. */
export const INCIDENT_EVENTS_INSERT_TRIGGER = {
  name: 'incidents_events_ins',
  table: 'incidents',
} as const satisfies TriggerRef;
export const COMMENT_EVENTS_INSERT_TRIGGER = {
  name: 'comments_events_ins',
  table: 'comments',
} as const satisfies TriggerRef;

/** Columns kept by the database itself: a change of only these is no change for a reader. */
const IGNORED_COLUMNS = `('updated', 'search_text', 'status_rank', 'priority_rank')`;

/** The names of the columns that differ between row `o` (old) and `n` (new), as a jsonb array. */
const CHANGED_COLUMNS = `(SELECT coalesce(jsonb_agg(c.key ORDER BY c.key), '[]'::jsonb)
                                 FROM jsonb_each(to_jsonb(n)) c
                                WHERE c.key NOT IN ${IGNORED_COLUMNS}
                                  AND c.value IS DISTINCT FROM to_jsonb(o) -> c.key)`;

/**
 * Live events. Statement-level triggers write one events row per changed object, set-wise; each
 * events row is published with pg_notify on 'soc_events' on commit (payload well under 8000
 * bytes). Inserts and updates of incidents also version the cached incident pages and totals.
 */
export const eventsSql: DerivedSql = {
  name: 'live events',
  statements: [
    `CREATE OR REPLACE FUNCTION events_publish() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('soc_events', json_build_object(
    'id', NEW.id, 'type', NEW.type, 'system_ids', NEW.system_ids, 'incident_key', NEW.incident_key,
    'object_id', NEW.object_id, 'data', NEW.data,
    'created', floor(extract(epoch FROM NEW.created) * 1000)::bigint)::text);
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'events_publish', table: 'events' },
      'AFTER INSERT',
      'FOR EACH ROW EXECUTE FUNCTION events_publish()',
    ),
    `CREATE OR REPLACE FUNCTION incidents_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (type, system_ids, incident_key, object_id, data)
  SELECT 'incident.created', ARRAY[n.system_id], n.key, n.id::text,
         jsonb_build_object('status', n.status, 'summary', left(n.summary, 300),
                            'reporter_id', n.reporter_id)
    FROM new_rows n ORDER BY n.key;
  RETURN NULL;
END $$`,
    ...trigger(
      INCIDENT_EVENTS_INSERT_TRIGGER,
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION incidents_events_inserted()',
    ),
    `CREATE OR REPLACE FUNCTION incidents_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (type, system_ids, incident_key, object_id, data)
  SELECT 'incident.updated', ARRAY[n.system_id], n.key, n.id::text,
         jsonb_build_object('status', n.status,
                            'previous_status', CASE WHEN o.status <> n.status THEN o.status END,
                            'changed', ${CHANGED_COLUMNS})
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE (o.*) IS DISTINCT FROM (n.*)
   ORDER BY n.key;
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'incidents_events_upd', table: 'incidents' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION incidents_events_updated()',
    ),
    `CREATE OR REPLACE FUNCTION comments_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (type, system_ids, incident_key, object_id, data)
  SELECT 'comment.created', ARRAY[i.system_id], i.key, c.id::text,
         jsonb_build_object('from_soc', c.from_soc, 'status', i.status)
    FROM new_rows c JOIN incidents i ON i.id = c.incident_id
   -- an internal note of the SOC writes no event: the live streams, mail, webhooks and the
   -- notification centre all read events, and none of them may learn of a note (docs/design.md §9)
   WHERE NOT c.internal
   ORDER BY c.id;
  RETURN NULL;
END $$`,
    ...trigger(
      COMMENT_EVENTS_INSERT_TRIGGER,
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION comments_events_inserted()',
    ),
    `CREATE OR REPLACE FUNCTION reports_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (type, system_ids, object_id, data)
  SELECT 'report.ready', n.system_ids, n.id::text, jsonb_build_object('name', left(n.name, 300))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE n.status = 'ready' AND o.status <> 'ready'
   ORDER BY n.id;
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'reports_events_upd', table: 'reports' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION reports_events_updated()',
    ),
    // tasks (service requests) feed the outbound webhooks and the notification centre: live streams and mail skip them
    `CREATE OR REPLACE FUNCTION tasks_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (type, system_ids, object_id, data)
  SELECT 'task.updated', ARRAY[n.system_id], n.id::text,
         jsonb_build_object('status', n.status,
                            'previous_status', CASE WHEN o.status <> n.status THEN o.status END,
                            'changed', ${CHANGED_COLUMNS},
                            -- a new chat message of the SOC: the notification centre's task answer
                            'soc_reply', n.messages_count > o.messages_count AND n.last_from_soc)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE (o.*) IS DISTINCT FROM (n.*)
   ORDER BY n.id;
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'tasks_events_upd', table: 'tasks' },
      'AFTER UPDATE',
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION tasks_events_updated()',
    ),
  ],
};
