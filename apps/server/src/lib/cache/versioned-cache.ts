import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRowsNamed } from '../../db/client.ts';
import { cacheRequests } from '../metrics.ts';

/**
 * Answers kept in memory until their version moves. A version is what one small statement reads
 * from the database: newest `events` ids, the `cache_epoch` counter, `version` columns of count
 * tables, all raised by triggers in the writer's transaction (design §8), so a writer that reads
 * right after its commit sees its change, on any instance. Caches whose versions can be read out
 * of order (events ids of writers committing out of order) are also emptied by the events that
 * every instance is told of, and keep nothing while that channel is down (`setLive`).
 *
 * `get` answers a kept value only while the cache is live, after `version()` still reads the
 * version it was kept with, and keeps a computed one only when no change was announced while it
 * was computed. `compute` must read its version no later than its value (in the same statement, or
 * before it), so that a kept value is never older than its version. Least recently used entries
 * make room.
 *
 * Callers that miss while the same key is being computed wait for that computation instead of
 * starting their own, and take its value as they would take a kept one: once `version()`, read
 * after it ended, still reads the version it was computed with. A new instance's first requests
 * ask for the same few expensive answers at once (the alert list of every system: several hundred
 * milliseconds of PostgreSQL on a million incidents); computed by each of them they made the
 * database the bottleneck of a cold start (issue 31, docs/performance.md "Cold start").
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
 * dead until it listens; caches whose versions need no channel start live. `name`: the cache's
 * label in the hit and miss counts of the metrics.
 */
export function createVersionedCache<T>(
  maxEntries: number,
  { live: startLive = false, name = 'other' }: { live?: boolean; name?: string } = {},
): VersionedCache<T> {
  const [hit, miss] = [cacheRequests.labels(name, 'hit'), cacheRequests.labels(name, 'miss')];
  const kept = new Map<string, Versioned<T> & { version: string }>();
  /** Computations running, by key, with the generation they started in. */
  const running = new Map<string, { generation: number; computed: Promise<Versioned<T>> }>();
  let live = startLive;
  /** Bumped on every change and on every loss of the channel; a computation compares it before keeping. */
  let generation = 0;
  /** Whether a value computed (or kept) with `version` may be answered now. */
  const current = async (started: number, valueVersion: string | null, version: () => Promise<string>) =>
    valueVersion !== null && (await version()) === valueVersion && generation === started;
  return {
    async get(key, compute, version) {
      const started = generation;
      const entry = live ? kept.get(key) : undefined;
      if (entry && (await current(started, entry.version, version))) {
        // most recently used last, so that the oldest entry is the one evicted
        kept.delete(key);
        kept.set(key, entry);
        hit.inc();
        return entry.value;
      }
      const shared = live ? running.get(key) : undefined;
      if (shared && shared.generation === started) {
        // a failed computation is the caller's own to try again
        const computed = await shared.computed.catch(() => null);
        if (computed && (await current(started, computed.version, version))) {
          hit.inc();
          return computed.value;
        }
      }
      miss.inc();
      const computing = compute();
      const mine = { generation: started, computed: computing };
      if (live) running.set(key, mine);
      let computed: Versioned<T>;
      try {
        computed = await computing;
      } finally {
        if (running.get(key) === mine) running.delete(key);
      }
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
      running.clear();
    },
    setLive(value) {
      generation += 1;
      kept.clear();
      running.clear();
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
