import { setTimeout as sleep } from 'node:timers/promises';
import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import type { Config } from '../core/config.ts';
import type { Database } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import type { BuiltUser } from '../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';

/*
 * The auth cache inside the app: a session checked a moment ago runs no auth query, and every
 * change that ends or narrows it still takes effect at once. Besides the test's own app (whose
 * embedded database delivers the NOTIFYs of migration 0020), instances are built on the same
 * database with a channel that claims to be live but delivers nothing ("deaf"), or that never
 * comes up ("down"), to show what the notifications and the local invalidation each do.
 */

let ctx: TestContext;
const extra: FastifyInstance[] = [];
const dialect = new PgDialect();
/** A customer of its own per test (a deactivation stays in its test); `twoSystems` sees two. */
const users: Record<string, BuiltUser> = {};
/** An incident of the first of twoSystems' systems. */
let incidentKey: number;
let firstSystem: number;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [first, second] = [await buildSystem(ctx), await buildSystem(ctx)];
  firstSystem = first.id;
  incidentKey = (await buildIncident(ctx, first.id)).key;
  for (const name of ['cached', 'signsOut', 'deactivated', 'expiring', 'uncachedChannel', 'changesPassword'])
    users[name] = await buildCustomer(ctx, [first.id]);
  users.twoSystems = await buildCustomer(ctx, [first.id, second.id]);
}, 120_000);
afterAll(async () => {
  for (const app of extra) await app.close();
  await ctx?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const deaf: Database['listen'] = async (_channel, _onPayload, onLive) => {
  onLive?.(true);
  return async () => undefined;
};
const down: Database['listen'] = async () => async () => undefined;

async function instance(listen?: Database['listen'], config: Partial<Config> = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { ...ctx.config, ...config },
    database: listen ? { ...ctx.database, listen } : ctx.database,
    auth: { failureFloorMs: 0, failureJitterMs: 0 },
  });
  await app.ready();
  extra.push(app);
  return app;
}

async function login(app: FastifyInstance, name: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v0/auth/token/obtain/',
    payload: { username: users[name]!.username, password: BUILT_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ access: string; refresh: string }>();
}

const get = (app: FastifyInstance, access: string, url = '/api/v0/auth/user/') =>
  app.inject({ method: 'GET', url, headers: bearer(access) }).then((r) => r.statusCode);

/** Counts the auth check's queries (the user, their systems, the session) from now on. */
function countAuthQueries(): () => number {
  const execute = vi.spyOn(ctx.database.db, 'execute');
  return () =>
    execute.mock.calls.filter(([query]) =>
      dialect.sqlToQuery(query as SQL).sql.includes('AS session_ms_left'),
    ).length;
}

/** Polls `probe` until it answers `expected`, for up to two seconds; returns the last answer. */
async function within2s(probe: () => Promise<number>, expected: number): Promise<number> {
  const until = Date.now() + 2_000;
  let last = await probe();
  while (last !== expected && Date.now() < until) {
    await sleep(20);
    last = await probe();
  }
  return last;
}

const exec = (query: SQL) => ctx.database.db.execute(query);

describe('auth cache in the app', () => {
  it('answers a repeated request without the auth query; AUTH_CACHE_SECONDS=0 reads every time', async () => {
    const { access } = await login(ctx.app, 'cached');
    const queries = countAuthQueries();
    for (let i = 0; i < 4; i++) expect(await get(ctx.app, access)).toBe(200);
    expect(queries()).toBe(1);

    const uncached = await instance(undefined, { authCacheSeconds: 0 });
    const before = queries();
    for (let i = 0; i < 3; i++) expect(await get(uncached, access)).toBe(200);
    expect(queries() - before).toBe(3);
  });

  it('refuses the access token at once after sign-out on the same instance, without the notification', async () => {
    const app = await instance(deaf);
    const pair = await login(app, 'signsOut');
    const queries = countAuthQueries();
    expect(await get(app, pair.access)).toBe(200);
    expect(await get(app, pair.access)).toBe(200);
    expect(queries()).toBe(1);
    const out = await app.inject({
      method: 'POST',
      url: '/api/v0/auth/logout/',
      payload: { refresh: pair.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect(await get(app, pair.access)).toBe(401);
  });

  it('refuses a user deactivated by direct SQL once the notification arrives (and only through it)', async () => {
    const deafApp = await instance(deaf);
    const viaNotify = await login(ctx.app, 'deactivated');
    const viaDeaf = await login(deafApp, 'deactivated');
    expect(await get(ctx.app, viaNotify.access)).toBe(200);
    expect(await get(deafApp, viaDeaf.access)).toBe(200);

    await exec(sql`UPDATE users SET is_active = false WHERE id = ${users.deactivated!.id}`);
    expect(await within2s(() => get(ctx.app, viaNotify.access), 401)).toBe(401);
    // the same cached answer without the notification: still served (what the trigger prevents)
    expect(await get(deafApp, viaDeaf.access)).toBe(200);
  });

  it('narrows the systems of a user removed from one by direct SQL: its incidents become 404', async () => {
    const url = `/api/v0/soc/incs/${incidentKey}/`;
    const deafApp = await instance(deaf);
    const viaNotify = await login(ctx.app, 'twoSystems');
    const viaDeaf = await login(deafApp, 'twoSystems');
    expect(await get(ctx.app, viaNotify.access, url)).toBe(200);
    expect(await get(deafApp, viaDeaf.access, url)).toBe(200);

    await exec(
      sql`DELETE FROM user_systems WHERE user_id = ${users.twoSystems!.id} AND system_id = ${firstSystem}`,
    );
    expect(await within2s(() => get(ctx.app, viaNotify.access, url), 404)).toBe(404);
    expect(await get(deafApp, viaDeaf.access, url)).toBe(200);
  });

  it('never serves a session past the expiry of its last live refresh token', async () => {
    // the clock of this instance (its cache reads it) is moved instead of waiting; the
    // database's timers stay real
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const app = await instance(deaf);
      const { access } = await login(app, 'expiring');
      const tokensOfUser = sql`user_id = ${users.expiring!.id}`;
      // written before the first check, so that the cached entry carries this expiry
      await exec(
        sql`UPDATE refresh_tokens SET expires_at = now() + interval '1500 milliseconds' WHERE ${tokensOfUser}`,
      );
      const queries = countAuthQueries();
      expect(await get(app, access)).toBe(200);
      // the database as it is 1.7 s later (the deaf instance hears nothing of it): the cached
      // entry still serves until the expiry it carries
      await exec(
        sql`UPDATE refresh_tokens SET expires_at = now() - interval '200 milliseconds' WHERE ${tokensOfUser}`,
      );
      expect(await get(app, access)).toBe(200);
      expect(queries()).toBe(1);
      vi.setSystemTime(Date.now() + 1_700);
      expect(await get(app, access)).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is bypassed while the channel is not live: every request reads, a change counts at once', async () => {
    const app = await instance(down);
    const { access } = await login(app, 'uncachedChannel');
    const queries = countAuthQueries();
    for (let i = 0; i < 3; i++) expect(await get(app, access)).toBe(200);
    expect(queries()).toBe(3);
    await exec(sql`UPDATE users SET is_active = false WHERE id = ${users.uncachedChannel!.id}`);
    expect(await get(app, access)).toBe(401);
  });

  it('ends every session at once on a password change, the one that made it too', async () => {
    const app = await instance(deaf);
    const kept = await login(app, 'changesPassword');
    const other = await login(app, 'changesPassword');
    expect(await get(app, other.access)).toBe(200);
    const res = await app.inject({
      method: 'PUT',
      url: '/api/v0/auth/password_change/',
      headers: bearer(kept.access),
      payload: {
        old_password: BUILT_PASSWORD,
        password: 'a-new-Passphrase-7291',
        confirmed_password: 'a-new-Passphrase-7291',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await get(app, other.access)).toBe(401);
    expect(await get(app, kept.access)).toBe(401);
  });
});
