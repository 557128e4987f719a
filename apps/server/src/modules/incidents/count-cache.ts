import type { SQL } from 'drizzle-orm';
import type { IncidentFilters } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CachedAnswer, VersionSources } from '../../lib/cache/cached-answer.ts';
import { createVersionedCache } from '../../lib/cache/versioned-cache.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { COUNT_VERSION, INCIDENT_CHANGE_EVENTS, readCountVersion } from './incidents-cache.repository.ts';
import { filterEntries } from './incident-filters.repository.ts';

/**
 * Exact list totals that have to be counted over the incidents (a text search, several filters at
 * once), kept until an incident may have changed. Every insert and update of an incident writes an
 * `incident.created` or `incident.updated` events row (migration 0015), and a removal raises
 * `cache_epoch`, so two checks guard a kept total:
 * - its version, the newest such events id and the epoch visible to the count's own statement: a
 *   hit re-reads them (one probe of events_incident_change_idx, one row) and counts again if they
 *   moved, so a writer that lists right after its commit sees its change, on any instance;
 * - the events NOTIFYed on commit to every instance empty the cache, which also covers a writer
 *   whose events id is older than one already visible (two writers committing out of order).
 * While the LISTEN connection is down nothing is kept or served; a count that was running when a
 * change arrived is answered but not kept. Single filters are answered exactly by the count table
 * `incident_counts` without this cache.
 */
export interface IncidentCountCache {
  /**
   * The kept total of `key` while its version holds, else `count(version)`: the total and the
   * expression `version` read by one statement, kept when no change arrived while it ran.
   */
  get(key: string, count: (version: SQL) => Promise<VersionedCount>): Promise<number>;
  /** Some incident may have changed (an event arrived): forget every total. */
  invalidate(): void;
  /** Whether every change reaches this instance; while false the cache is bypassed. */
  setLive(live: boolean): void;
  readonly size: number;
}

export interface VersionedCount {
  n: number;
  version: string;
}

export const COUNT_CACHE_MAX_ENTRIES = 1000;

export const INCIDENT_COUNT_VERSION_SOURCES: VersionSources = {
  epoch: true,
  events: INCIDENT_CHANGE_EVENTS,
  counters: [],
  rows: [],
};

/**
 * A total counted over the incidents (up to TOTAL_COUNT_CAP + 1). The filters that read other
 * tables (services, rules) are not kept (`countCacheKey`).
 */
export const INCIDENT_COUNT_ANSWER: CachedAnswer = {
  name: 'incident list total',
  reads: ['incidents', 'incident_search'],
  version: INCIDENT_COUNT_VERSION_SOURCES,
};

/**
 * The count-cache key of a filter set and scope, or null when the count also reads other tables
 * (services, rules), whose changes raise no incident event.
 */
export function countCacheKey(filters: IncidentFilters, scope: SystemScope): string | null {
  if (filters.service__in || filters.rule_id__in) return null;
  return JSON.stringify([scope, filterEntries(filters)]);
}

export function createIncidentCountCache(db: Db, maxEntries = COUNT_CACHE_MAX_ENTRIES): IncidentCountCache {
  const cache = createVersionedCache<number>(maxEntries, { name: 'incident_counts' });
  const version = () => readCountVersion(db);
  return {
    get: (key, count) =>
      cache.get(
        key,
        async () => {
          const { n, version: v } = await count(COUNT_VERSION);
          return { value: n, version: v };
        },
        version,
      ),
    invalidate: () => cache.invalidate(),
    setLive: (live) => cache.setLive(live),
    get size() {
      return cache.size;
    },
  };
}
