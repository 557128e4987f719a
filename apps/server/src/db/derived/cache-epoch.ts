import type { DerivedSql } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

const ALL_CHANGES = 'AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE';
const BUMP = 'FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump()';

/** A trigger that moves the epoch after every statement of `timing` on `table`. */
const bumpOn = (table: string, timing = ALL_CHANGES, name = `${table}_cache_epoch`) =>
  trigger({ name, table }, timing, BUMP);

/**
 * Cached incident cards and list pages, alert pages and rule pages are versioned by the newest
 * events id and by the one row of `cache_epoch`. These triggers raise it, in the writer's
 * transaction, for every change those pages show that writes no events row: files, links, and the
 * names of systems, services, issue types, categories, resolutions and users; the tags, response
 * teams and rules that alert rows and rule pages show; and tables emptied at once. One row, so its
 * lock orders those writers.
 */
export const cacheEpochSql: DerivedSql = {
  name: 'cache epoch',
  statements: [
    `CREATE OR REPLACE FUNCTION cache_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_epoch SET n = n + 1;
  RETURN NULL;
END $$`,
    ...bumpOn('attachments'),
    ...bumpOn('incident_links'),
    ...bumpOn('systems'),
    ...bumpOn('services'),
    ...bumpOn('issue_types'),
    ...bumpOn('categories'),
    ...bumpOn('resolutions'),
    ...bumpOn('users', 'AFTER UPDATE OF username, first_name, last_name OR DELETE OR TRUNCATE'),
    // inserts and updates of incidents and inserts of comments write events rows; removals do not
    ...bumpOn('incidents', 'AFTER DELETE OR TRUNCATE'),
    ...bumpOn('comments', 'AFTER UPDATE OR DELETE OR TRUNCATE'),
    // setTags upserts the tag of every name it is given, so only a real change of a name or colour counts
    ...trigger(
      { name: 'tags_cache_epoch_update', table: 'tags' },
      'AFTER UPDATE',
      `FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.color IS DISTINCT FROM NEW.color)
  EXECUTE FUNCTION cache_epoch_bump()`,
    ),
    ...bumpOn('tags', 'AFTER DELETE OR TRUNCATE'),
    // a new response team shows nowhere until an alert names it (an update of that alert)
    ...bumpOn('response_teams', 'AFTER UPDATE OR DELETE OR TRUNCATE'),
    ...bumpOn('rules'),
    ...bumpOn('alerts', 'AFTER TRUNCATE'),
    ...bumpOn('alert_tags', 'AFTER TRUNCATE'),
  ],
};
