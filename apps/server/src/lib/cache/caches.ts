import type { CachedAnswer, VersionSources } from './cached-answer.ts';

/** What a cache follows of the event bus (modules/events/event-bus.ts). */
export interface EventFeed {
  subscribe(listener: (event: { type: string }) => void): () => void;
  /** Called at once with the current state, then on every change. */
  onLive(listener: (live: boolean) => void): () => void;
}

/** A cache whose versions read event ids: emptied by the events it reads, bypassed while not live. */
export interface FollowingCache {
  invalidate(): void;
  setLive(live: boolean): void;
}

/**
 * The caches of the server's answers, registered by the modules that own them (design §8): each
 * module makes its caches once per app through `shared`, declares the answers they keep with the
 * tables those read (checked by cached-tables.test.ts) and ties those versioned by event ids to
 * the event bus with `follow`.
 */
export interface CacheRegistry {
  /** The one instance kept under `key`, made by `make` on first use (another module may answer through it). */
  shared<T>(key: string, make: () => T): T;
  /** Declares cached answers with the tables they read. */
  declare(...answers: CachedAnswer[]): void;
  /**
   * Ties a cache to the event bus: each event its versions read empties it, as one older than a
   * version already seen (writers committing out of order) would not move it, and it keeps
   * nothing while the bus may miss events. Caches versioned by counters alone need no channel:
   * a later read of a counter raised under its row's lock never sees an earlier value.
   */
  follow(cache: FollowingCache, sources: VersionSources): void;
  /** Every answer declared so far. */
  readonly answers: readonly CachedAnswer[];
}

/** Whether an event of `type` moves a version that reads `sources`. */
export const readsEvent = (sources: VersionSources, type: string) =>
  sources.events === '*' || sources.events.includes(type);

/** The registry of one app, over its event bus. */
export function createCacheRegistry(bus: EventFeed): CacheRegistry {
  const instances = new Map<string, unknown>();
  const answers: CachedAnswer[] = [];
  const followers: { cache: FollowingCache; sources: VersionSources }[] = [];
  let live = false;
  // any committed change (routes, analyst API, jobs, other instances) reaches every instance
  bus.subscribe((event) => {
    for (const { cache, sources } of followers) if (readsEvent(sources, event.type)) cache.invalidate();
  });
  bus.onLive((value) => {
    live = value;
    for (const { cache } of followers) cache.setLive(value);
  });
  return {
    shared<T>(key: string, make: () => T): T {
      if (!instances.has(key)) instances.set(key, make());
      return instances.get(key) as T;
    },
    declare(...declared) {
      answers.push(...declared);
    },
    follow(cache, sources) {
      followers.push({ cache, sources });
      cache.setLive(live);
    },
    get answers() {
      return answers;
    },
  };
}
