import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Config } from '../../core/config.ts';
import { routeLimitsOff } from '../../core/config.ts';
import type { RateLimitStoreOptions } from './rate-limit-store.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildSystem } from '../../test/builders.ts';

/*
 * Issue 14: with REDIS_URL the sign-in rate limit counts the requests of every instance. Two apps
 * are built on one database (as two processes behind a proxy would run); the local Redis
 * (TEST_REDIS_URL, default 127.0.0.1:6379) holds the counters under a key prefix of this run.
 *
 * What decides these tests is not the one-minute window (each test is over well within it) but
 * the store's command timeout: an answer slower than it leaves the request uncounted, which on a
 * loaded machine let a fifth sign-in through. The instances that count wait for Redis as long as
 * a test may run; the unreachable case keeps the production timeout, whose fail-open it checks.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 4;
/** Redis answers are waited for this long by the counting instances: a test's whole time-out. */
const PATIENT = { commandTimeoutMs: 30_000 };

let ctx: TestContext;
let redis: Redis;
const prefix = `soc-test-${randomBytes(6).toString('hex')}:`;
const extra: FastifyInstance[] = [];
/** Two customers of a built system: one signs in, each exports on instances of their own. */
let first: BuiltUser;
let second: BuiltUser;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  redis = new Redis(REDIS_URL);
  const system = await buildSystem(ctx);
  first = await buildCustomer(ctx, [system.id]);
  second = await buildCustomer(ctx, [system.id]);
}, 120_000);
afterAll(async () => {
  for (const app of extra) await app.close();
  await ctx?.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

/** Another instance on the test's database with the given rate-limit configuration. */
async function instance(
  redisUrl: string | undefined,
  keyPrefix: string,
  routeLimits: Config['routeLimits'] = ctx.config.routeLimits,
  rateLimitStore: RateLimitStoreOptions = PATIENT,
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: {
      ...ctx.config,
      authRateLimitPerMinute: LIMIT,
      redisUrl,
      redisKeyPrefix: keyPrefix,
      routeLimits,
    },
    database: ctx.database,
    auth: { failureFloorMs: 0, failureJitterMs: 0 },
    rateLimitStore,
  });
  await app.ready();
  extra.push(app);
  return app;
}

const signIn = (app: FastifyInstance) =>
  app
    .inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: first.username, password: BUILT_PASSWORD },
    })
    .then((r) => r.statusCode);

describe('sign-in rate limit across two instances', () => {
  it('with Redis, the limit counts the requests of both instances', async () => {
    const a = await instance(REDIS_URL, `${prefix}shared:`);
    const b = await instance(REDIS_URL, `${prefix}shared:`);
    const codes = [await signIn(a), await signIn(b), await signIn(a), await signIn(b)];
    expect(codes).toEqual([200, 200, 200, 200]);
    // the fifth request of the minute, whichever instance it reaches
    expect(await signIn(a)).toBe(429);
    expect(await signIn(b)).toBe(429);
    const keys = await redis.keys(`${prefix}shared:rate-limit:*`);
    // a route's own limit is named by its method and path, then the client's address
    expect(keys).toEqual([`${prefix}shared:rate-limit:POST/api/v0/auth/token/obtain/-127.0.0.1`]);
    expect(Number(await redis.get(keys[0]!))).toBe(LIMIT + 2);
  });

  it('without Redis, each instance counts alone (the case the shared store closes)', async () => {
    const a = await instance(undefined, `${prefix}unused:`);
    const b = await instance(undefined, `${prefix}unused:`);
    const codes = [await signIn(a), await signIn(b), await signIn(a), await signIn(b), await signIn(a)];
    expect(codes).toEqual([200, 200, 200, 200, 200]);
    expect(await redis.keys(`${prefix}unused:*`)).toEqual([]);
  });

  it('an unreachable Redis does not stop sign-in', async () => {
    // nothing listens on port 1
    const a = await instance('redis://127.0.0.1:1', `${prefix}down:`, undefined, {});
    expect(await signIn(a)).toBe(200);
  });
});

describe('route limits across two instances (issue 25)', () => {
  const exportsOf = (perUser: number): Config['routeLimits'] => ({
    windowSeconds: 60,
    buckets: { ...routeLimitsOff(), export: { perUser, perSystem: 0 } },
  });
  const exportCsv = (app: FastifyInstance, access: string) =>
    app
      .inject({
        method: 'GET',
        url: '/api/v0/soc/incs/get_csv/',
        headers: { authorization: `Bearer ${access}` },
      })
      .then((r) => r.statusCode);

  it('with Redis, a user’s CSV exports count on both instances', async () => {
    const access = await first.login();
    const a = await instance(REDIS_URL, `${prefix}routes:`, exportsOf(2));
    const b = await instance(REDIS_URL, `${prefix}routes:`, exportsOf(2));
    expect([await exportCsv(a, access), await exportCsv(b, access)]).toEqual([200, 200]);
    expect(await exportCsv(a, access)).toBe(429);
    expect(await exportCsv(b, access)).toBe(429);
    // named by bucket, scope and id (issue 38: they read `rate-limit:undefinedundefined-export:…`)
    const keys = await redis.keys(`${prefix}routes:rate-limit:*`);
    expect(keys).toEqual([`${prefix}routes:rate-limit:export:user:${first.id}`]);
    expect(Number(await redis.get(keys[0]!))).toBe(4);
  });

  it('without Redis, each instance counts alone', async () => {
    const access = await second.login();
    const a = await instance(undefined, `${prefix}routes-local:`, exportsOf(2));
    const b = await instance(undefined, `${prefix}routes-local:`, exportsOf(2));
    const codes = [await exportCsv(a, access), await exportCsv(b, access), await exportCsv(a, access)];
    expect(codes).toEqual([200, 200, 200]);
  });
});
