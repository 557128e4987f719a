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

export function createCountCache(maxEntries = COUNT_CACHE_MAX_ENTRIES): CountCache {
  const totals = new Map<string, VersionedCount>();
  let live = false;
  /** Bumped on every change and on every loss of the channel; a count compares it before keeping. */
  let generation = 0;
  return {
    async get(key, count, version) {
      const started = generation;
      const kept = live ? totals.get(key) : undefined;
      if (kept && (await version()) === kept.version && generation === started) {
        // most recently used last, so that the oldest entry is the one evicted
        totals.delete(key);
        totals.set(key, kept);
        return kept.n;
      }
      const counted = await count();
      if (live && generation === started) {
        totals.delete(key);
        if (totals.size >= maxEntries) totals.delete(totals.keys().next().value as string);
        totals.set(key, counted);
      }
      return counted.n;
    },
    invalidate() {
      generation += 1;
      totals.clear();
    },
    setLive(value) {
      generation += 1;
      totals.clear();
      live = value;
    },
    get size() {
      return totals.size;
    },
  };
}
