import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { readVersion } from '../../lib/cache/versioned-cache.ts';

/**
 * The version statements of the incidents module's caches (design §8): each reads, in one
 * snapshot and by indexed probes, what moves when a cached answer may have changed.
 */

/**
 * The events that the incident triggers write for every insert and update of an incident; others
 * (comments, SLA reminders) change no incident row.
 */
export const INCIDENT_CHANGE_EVENTS = ['incident.created', 'incident.updated'] as const;

/** The version of a total: the newest incident change (events_incident_change_idx) and the epoch. */
export const COUNT_VERSION = sql.raw(
  `(SELECT coalesce(max(id), 0) FROM events WHERE type IN (${INCIDENT_CHANGE_EVENTS.map((t) => `'${t}'`).join(', ')}))::text
   || ':' || coalesce((SELECT n FROM cache_epoch), 0)::text`,
);

const COUNT_VERSION_STATEMENT = sql`SELECT ${COUNT_VERSION} AS version`;

export const readCountVersion = (db: Db) => readVersion(db, COUNT_VERSION_STATEMENT);

/**
 * The version of everything an incident card or list page shows: the newest `events` id (every
 * insert and update of an incident and every new comment writes one, by trigger) and the counter
 * of `cache_epoch`, which triggers raise in the writer's transaction when files, links, the
 * names of systems, services, issue types, categories, resolutions and users (migration 0022) or
 * the rules that the rule filter reads (migration 0023) change. Both are read in one snapshot, by
 * one indexed probe each.
 */
const RESPONSE_VERSION = sql`SELECT (SELECT coalesce(max(id), 0) FROM events)::text || ':'
                                  || coalesce((SELECT n FROM cache_epoch), 0)::text AS version`;

export const readResponseVersion = (db: Db) => readVersion(db, RESPONSE_VERSION);
