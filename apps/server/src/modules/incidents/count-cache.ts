import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRowsNamed } from '../../db/client.ts';

/**
 * Exact list totals that have to be counted over the incidents (a text search, several filters at
 * once), kept until an incident may have changed. Every insert and update of an incident writes an
 * `incident.created` or `incident.updated` events row (migration 0015), so two checks guard a kept
 * total:
 * - its version, the newest such events id visible to the count's own statement: a hit re-reads
 *   it (one probe of events_incident_change_idx) and counts again if it moved, so a writer that
 *   lists right after its commit sees its change, on any instance;
 * - the events NOTIFYed on commit to every instance empty the cache, which also covers a writer
 *   whose events id is older than one already visible (two writers committing out of order).
 * While the LISTEN connection is down nothing is kept or served; a count that was running when a
 * change arrived is answered but not kept. Single filters are answered exactly by the count table
 * `incident_counts` without this cache.
 */
export interface CountCache {
  /**
   * The kept total of `key` if its version is still `version()`, else `count()` (the total and the
   * version read by one statement), kept when no change arrived while it ran.
   */
  get(key: string, count: () => Promise<VersionedCount>, version: () => Promise<string>): Promise<number>;
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

/**
 * The events that the incident triggers write for every insert and update of an incident; others
 * (comments, SLA reminders) change no incident row.
 */
export const INCIDENT_CHANGE_EVENTS = ['incident.created', 'incident.updated'] as const;

/**
 * Values kept until their version moves (see the top of this file): `get` answers a kept value
 * only while the cache is live, after `version()` still reads the version it was kept with, and
 * keeps a computed one only when no change was announced while it was computed. `compute` must
 * read its version no later than its value (in the same statement, or before it), so that a kept
 * value is never older than its version. Least recently used entries make room.
 */
export interface VersionedCache<T> {
  get(key: string, compute: () => Promise<Versioned<T>>, version: () => Promise<string>): Promise<T>;
  invalidate(): void;
  setLive(live: boolean): void;
  readonly size: number;
}

export interface Versioned<T> {
  value: T;
  /** null: answer the value but do not keep it (it depends on more than the version). */
  version: string | null;
}

/**
 * `live`: whether values may be kept from the start. Caches forgotten by an event channel start
 * dead until it listens; caches whose versions need no channel start live.
 */
export function createVersionedCache<T>(
  maxEntries: number,
  { live: startLive = false } = {},
): VersionedCache<T> {
  const kept = new Map<string, Versioned<T> & { version: string }>();
  let live = startLive;
  /** Bumped on every change and on every loss of the channel; a computation compares it before keeping. */
  let generation = 0;
  return {
    async get(key, compute, version) {
      const started = generation;
      const entry = live ? kept.get(key) : undefined;
      if (entry && (await version()) === entry.version && generation === started) {
        // most recently used last, so that the oldest entry is the one evicted
        kept.delete(key);
        kept.set(key, entry);
        return entry.value;
      }
      const computed = await compute();
      if (live && generation === started && computed.version !== null) {
        kept.delete(key);
        if (kept.size >= maxEntries) kept.delete(kept.keys().next().value as string);
        kept.set(key, { value: computed.value, version: computed.version });
      }
      return computed.value;
    },
    invalidate() {
      generation += 1;
      kept.clear();
    },
    setLive(value) {
      generation += 1;
      kept.clear();
      live = value;
    },
    get size() {
      return kept.size;
    },
  };
}

/** A caller's systems as part of a cache key (null: every system). */
export const scopeKey = (scope: readonly number[] | null) =>
  scope === null ? '*' : [...scope].sort((a, b) => a - b).join(',');

/** The `version` column of a small named statement (one per cache kind), '' when it gives no row. */
export async function readVersion(db: Db, query: SQL): Promise<string> {
  const [row] = await queryRowsNamed<{ version: string }>(db, query);
  return row?.version ?? '';
}

/**
 * `build()` answered through `cache` under `key`: the version is read before the value is built,
 * so that what is kept is never older than its version. `keepIt` says whether a value depends on
 * the version alone (one that does not is answered but not kept).
 */
export function keepVersioned<T>(
  cache: VersionedCache<T>,
  key: string,
  version: () => Promise<string>,
  build: () => Promise<T>,
  keepIt: (value: T) => boolean = () => true,
): Promise<T> {
  return cache.get(
    key,
    async () => {
      const v = await version();
      const value = await build();
      return { value, version: keepIt(value) ? v : null };
    },
    version,
  );
}

export function createCountCache(maxEntries = COUNT_CACHE_MAX_ENTRIES): CountCache {
  const cache = createVersionedCache<number>(maxEntries);
  return {
    get: (key, count, version) =>
      cache.get(
        key,
        async () => {
          const { n, version: v } = await count();
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
