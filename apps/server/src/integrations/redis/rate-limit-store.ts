import type { RateLimitPluginOptions } from '@fastify/rate-limit';
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
  return {
    options: { global: false, redis, nameSpace: `${keyPrefix}rate-limit:`, skipOnError: true },
    state: () => (redis.status === 'ready' ? 'ok' : 'unavailable'),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
