import type { Alert } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CachedAnswer } from '../../lib/cache/cached-answer.ts';
import type { VersionedCache } from '../../lib/cache/versioned-cache.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { createVersionedCache, keepVersioned, scopeKey } from '../../lib/cache/versioned-cache.ts';
import { readAlertListVersion, readIncidentAlertsVersion } from './alerts-cache.repository.ts';

export const INCIDENT_ALERTS_CACHE_MAX_ENTRIES = 2000;
export const ALERT_LIST_CACHE_MAX_ENTRIES = 300;
/** Larger pages are answered but not kept, so that the caches' memory stays bounded. */
export const KEPT_PAGE_MAX_ROWS = 100;
const small = (page: { results: unknown[] }) => page.results.length <= KEPT_PAGE_MAX_ROWS;

export interface AlertPage {
  total: number;
  results: Alert[];
}

/** What an alert row shows: the alert, its tags, and the names of its system, assignee and team. */
const ALERT_ROW_READS = ['alerts', 'alert_tags', 'tags', 'systems', 'users', 'response_teams'] as const;

export const INCIDENT_ALERTS_ANSWER: CachedAnswer = {
  name: 'alerts of an incident',
  reads: [...ALERT_ROW_READS, 'incidents', 'incident_alert_counts'],
  version: { epoch: true, events: [], counters: ['incident_alert_counts'], rows: ['incidents'] },
};

export const ALERT_LIST_ANSWER: CachedAnswer = {
  name: 'alert list page',
  reads: [...ALERT_ROW_READS, 'system_alert_counts', 'incidents'],
  version: { epoch: true, events: [], counters: ['system_alert_counts'], rows: [] },
  unannounced: {
    // the incident filter reads incidents' keys and ids, which never change; an alert joins an
    // incident by an insert or update of the alert, which raises its system's version
    incidents: {
      INSERT: 'alerts join a new incident by a change of the alert',
      UPDATE: 'the filter reads only the key and the id, which never change',
    },
  },
};

/**
 * Pages of alerts kept until their version moves. The alerts triggers raise a version per
 * incident (`incident_alert_counts`) and per system (`system_alert_counts`) for every insert,
 * update and delete of alerts and of their tags, in the writer's transaction and under the count
 * row's lock (migration 0023); names shown beside them move `cache_epoch`. As every raise of one
 * counter waits for the previous writer's commit, a version read later is never a version read
 * before, on any instance: unlike the incident caches, no event channel is needed to forget a
 * value, and a hit costs one small named statement.
 *
 * - an incident's alerts: the incident's system (whose members may see it) and version (its
 *   alerts, whatever their system), and the epoch;
 * - the alerts page: the sum of the versions of the systems whose alerts it can show (a sum of
 *   counters that only grow moves whenever one of them does) and the epoch.
 */
export interface AlertsResponseCache {
  incident(
    key: number,
    scope: SystemScope,
    query: object,
    build: () => Promise<AlertPage>,
  ): Promise<AlertPage>;
  /** `systems`: the systems whose alerts the page can show (null: every system). */
  list(
    systems: SystemScope,
    scope: SystemScope,
    query: object,
    build: () => Promise<AlertPage>,
  ): Promise<AlertPage>;
  readonly size: number;
}

export function createAlertsResponseCache(
  db: Db,
  { incidents = INCIDENT_ALERTS_CACHE_MAX_ENTRIES, lists = ALERT_LIST_CACHE_MAX_ENTRIES } = {},
): AlertsResponseCache {
  // the versions need no channel (see above): both caches are live from the start
  const incidentCache: VersionedCache<AlertPage> = createVersionedCache(incidents, {
    live: true,
    name: 'incident_alerts',
  });
  const listCache: VersionedCache<AlertPage> = createVersionedCache(lists, {
    live: true,
    name: 'alert_lists',
  });
  return {
    incident(key, scope, query, build) {
      const version = () => readIncidentAlertsVersion(db, key);
      return keepVersioned(
        incidentCache,
        JSON.stringify([key, scopeKey(scope), query]),
        version,
        build,
        small,
      );
    },
    list(systems, scope, query, build) {
      const version = () => readAlertListVersion(db, systems);
      return keepVersioned(listCache, JSON.stringify([scopeKey(scope), query]), version, build, small);
    },
    get size() {
      return incidentCache.size + listCache.size;
    },
  };
}
