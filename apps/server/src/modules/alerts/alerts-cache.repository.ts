import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { readVersion } from '../../lib/cache/versioned-cache.ts';

/**
 * The version statements of the alerts caches (design §8). What an alert row shows beside the
 * alert tables (names of systems, users, teams, tags) moves the epoch.
 */
const EPOCH = sql`coalesce((SELECT n FROM cache_epoch), 0)::text`;

/** An incident's alerts: its system, its alert counter and the epoch. */
export const readIncidentAlertsVersion = (db: Db, key: number) =>
  readVersion(
    db,
    sql`SELECT coalesce((SELECT i.system_id::text || '/' || coalesce(c.version, 0)::text
                           FROM incidents i LEFT JOIN incident_alert_counts c ON c.incident_id = i.id
                          WHERE i.key = ${key}), '-') || ':' || ${EPOCH} AS version`,
  );

/** The alert list of these systems (null: all): their alert counters and the epoch. */
export const readAlertListVersion = (db: Db, systems: number[] | null) =>
  readVersion(
    db,
    sql`SELECT (SELECT coalesce(sum(version), 0) FROM system_alert_counts
                 ${systems ? sql`WHERE system_id = ANY(${sql.param(systems)}::int[])` : sql``})::text
               || ':' || ${EPOCH} AS version`,
  );
