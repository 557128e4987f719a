import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export interface RateLimitStoreOptions {
  /**
   * How long a Redis command may take before the request goes on uncounted (default 500 ms).
   * Tests that count requests raise it: on a loaded machine an answer can take longer.
   */
  commandTimeoutMs?: number;
}

export interface RateLimitStore {
  /** Options for @fastify/rate-limit: a Redis store when REDIS_URL is set, else its in-memory one. */
  options: RateLimitPluginOptions;
  /** Whether Redis is connected (`/readyz` reports it); undefined without REDIS_URL. */
  state(): 'ok' | 'unavailable' | undefined;
  close(): Promise<void>;
}

/** What the plugin passes to a store's `child()`: the merged options, with the route of a route's own limit. */
interface ChildOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: unknown; url?: unknown };
}

/** The plugin's Redis store (an atomic Lua INCR + PEXPIRE per key); it ships no types of its own. */
interface PluginRedisStore {
  readonly redis: Redis;
  /** The prefix of every key this store counts. */
  readonly key: string;
  child(options: ChildOptions): PluginRedisStore;
}
type PluginRedisStoreCtor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => PluginRedisStore;
const PluginRedisStore = createRequire(import.meta.url)(
  '@fastify/rate-limit/store/RedisStore.js',
) as PluginRedisStoreCtor;

/**
 * The plugin's Redis store with readable key names. The plugin names a route's counters
 * `<nameSpace><METHOD><url>-<key>`, and does the same for a limiter made with `createRateLimit`,
 * which has no route: its keys read `rate-limit:undefinedundefined-export:user:7`. Here such a
 * limiter (the route limits of plugins/route-limits.ts, whose keys name their bucket) counts
 * under `<nameSpace><key>`, and a route's own limit keeps the plugin's names.
 */
class NamedRedisStore extends PluginRedisStore {
  override child(options: ChildOptions): PluginRedisStore {
    const { method, url } = options.routeInfo ?? {};
    const route = typeof method === 'string' && typeof url === 'string' ? `${method}${url}-` : '';
    return new NamedRedisStore(
      options.continueExceeding ?? false,
      options.exponentialBackoff ?? false,
      this.redis,
      `${this.key}${route}`,
    );
  }
}

/**
 * The counters of the credential endpoints' rate limits. With several instances behind a proxy an
 * in-memory counter lets a client try `instances × limit` times a minute; in Redis every instance
 * increments the same key (an atomic Lua INCR + PEXPIRE of the plugin's RedisStore).
 *
 * An unreachable Redis does not stop sign-in: a command fails within `commandTimeout` and the
 * request goes on without the per-minute ceiling (`skipOnError`); the failed-sign-in lock kept in
 * PostgreSQL still holds. A command queued while the connection is (re)made waits at most that
 * long too, so the first requests after start-up are counted once Redis answers.
 */
export function createRateLimitStore(
  redisUrl: string | undefined,
  keyPrefix: string,
  log: FastifyBaseLogger,
  { commandTimeoutMs = 500 }: RateLimitStoreOptions = {},
): RateLimitStore {
  if (!redisUrl) return { options: { global: false }, state: () => undefined, close: async () => undefined };
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: commandTimeoutMs,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    // once per outage; the URL (which may hold a password) is not logged
    if (!down)
      log.warn({ err: err.message }, 'Redis unreachable: rate limits are not enforced until it is back');
    down = true;
  });
  redis.on('ready', () => (down = false));
  const nameSpace = `${keyPrefix}rate-limit:`;
  /** The plugin makes its store with `new store(options)`; this one holds the connection. */
  class Store extends NamedRedisStore {
    constructor(options: ChildOptions) {
      super(options.continueExceeding ?? false, options.exponentialBackoff ?? false, redis, nameSpace);
    }
  }
  return {
    // the plugin's types call child()'s argument a RouteOptions; it is the ChildOptions above
    options: { global: false, store: Store as unknown as FastifyRateLimitStoreCtor, skipOnError: true },
    state: () => (redis.status === 'ready' ? 'ok' : 'unavailable'),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
