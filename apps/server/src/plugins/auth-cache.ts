import type { Database } from '../db/client.ts';
import type { AuthCache, AuthUser } from '../core/auth.ts';
import { cacheRequests } from '../lib/metrics.ts';

const [authHits, authMisses] = [cacheRequests.labels('auth', 'hit'), cacheRequests.labels('auth', 'miss')];

/** The channel that the triggers of migration 0020 notify when what the auth check reads changes. */
export const AUTH_CHANNEL = 'soc_auth';

export const AUTH_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  userId: number;
  user: AuthUser;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface AuthCacheOptions {
  maxAgeMs: number;
  maxEntries?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

const keyOf = (userId: number, sessionId: string | null) => `${userId}:${sessionId ?? ''}`;

export function createAuthCache({
  maxAgeMs,
  maxEntries = AUTH_CACHE_MAX_ENTRIES,
  now = Date.now,
}: AuthCacheOptions): AuthCache {
  /** In order of use: the first key is the least recently used. */
  const entries = new Map<string, Entry>();
  const keysOfUser = new Map<number, Set<string>>();
  let live = false;
  /** Bumped on every change and on every change of the channel; a read compares it before keeping. */
  let generation = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const keys = keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.userId);
  };
  const clear = () => {
    generation += 1;
    entries.clear();
    keysOfUser.clear();
  };
  const invalidateUser = (userId: number) => {
    generation += 1;
    for (const key of keysOfUser.get(userId) ?? []) entries.delete(key);
    keysOfUser.delete(userId);
  };

  return {
    async load(userId, sessionId, read) {
      const key = keyOf(userId, sessionId);
      const kept = live ? entries.get(key) : undefined;
      if (kept && kept.expiresAt > now()) {
        entries.delete(key);
        entries.set(key, kept);
        authHits.inc();
        return kept.user;
      }
      if (kept) remove(key);
      authMisses.inc();
      const started = generation;
      const user = await read();
      if (!live || generation !== started || !user?.isActive) return user;
      if (sessionId !== null && !user.sessionAlive) return user;
      const expiresAt = Math.min(now() + maxAgeMs, user.sessionExpiresAt ?? Infinity);
      if (expiresAt <= now()) return user;
      remove(key);
      if (entries.size >= maxEntries) remove(entries.keys().next().value as string);
      entries.set(key, {
        userId,
        user: Object.freeze({ ...user, systemIds: [...user.systemIds] }),
        expiresAt,
      });
      let keys = keysOfUser.get(userId);
      if (!keys) keysOfUser.set(userId, (keys = new Set()));
      keys.add(key);
      return user;
    },
    invalidateUser,
    onPayload(payload) {
      const ids = payload.split(',').map(Number);
      // anything but a list of ids (`*`, or a payload this version does not know) forgets everyone
      if (ids.some((id) => !Number.isSafeInteger(id))) clear();
      else for (const id of ids) invalidateUser(id);
    },
    setLive(value) {
      clear();
      live = value;
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * Feeds the cache from `AUTH_CHANNEL` (PostgreSQL: a dedicated connection that reconnects; the
 * cache is bypassed meanwhile). Resolves to the function that stops listening.
 */
export async function listenAuthChanges(
  database: Pick<Database, 'listen'>,
  cache: AuthCache,
): Promise<() => Promise<void>> {
  const stop = await database.listen(
    AUTH_CHANNEL,
    (payload) => cache.onPayload(payload),
    (live) => cache.setLive(live),
  );
  return async () => {
    cache.setLive(false);
    await stop();
  };
}
