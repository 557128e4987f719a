import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { RouteLimitBucket } from '../config.ts';
import { routeLimitsOff } from '../config.ts';
import { incidents, userSystems, users } from '../db/schema/index.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';

/*
 * Issue 25 item 11: the expensive and write routes are limited per user and per system (tenant).
 * Each test builds an instance with its own limits on the shared test database (in-memory
 * counters, a fresh set per instance).
 */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const extra: FastifyInstance[] = [];
/** An incident key of each system. */
const keyOf = new Map<number, number>();
const systemOf: Record<string, number[]> = {};

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 40 });
  for (const name of ['alice', 'carol', 'bob', 'user001', 'analyst'])
    tokens[name] = (await ctx.login(name)).access;
  const rows = await ctx.database.db
    .select({ key: incidents.key, systemId: incidents.systemId })
    .from(incidents);
  for (const r of rows) if (!keyOf.has(r.systemId)) keyOf.set(r.systemId, r.key);
  const members = await ctx.database.db
    .select({ username: users.username, systemId: userSystems.systemId })
    .from(userSystems)
    .innerJoin(users, eq(users.id, userSystems.userId));
  for (const m of members) (systemOf[m.username] ??= []).push(m.systemId);
}, 120_000);
afterAll(async () => {
  for (const app of extra) await app.close();
  await ctx?.close();
});

async function instance(bucket: RouteLimitBucket, perUser: number, perSystem: number) {
  const buckets = routeLimitsOff();
  buckets[bucket] = { perUser, perSystem };
  const app = await buildApp({
    config: { ...ctx.config, routeLimits: { windowSeconds: 60, buckets } },
    database: ctx.database,
  });
  await app.ready();
  extra.push(app);
  return app;
}

const get = (app: FastifyInstance, user: string, url: string, lang = 'ru') =>
  app.inject({
    method: 'GET',
    url: `/api/v0/soc/${url}`,
    headers: { ...bearer(tokens[user]!), 'accept-language': lang },
  });
const csv = (app: FastifyInstance, user: string, lang?: string) => get(app, user, 'incs/get_csv/', lang);
const pdf = (app: FastifyInstance, user: string, key: number) => get(app, user, `incs/${key}/get_pdf_inc/`);

describe('rate limits of expensive routes', () => {
  it('refuses a user over the limit with 429, Retry-After and a detail in their language; others pass', async () => {
    const app = await instance('export', 2, 0);
    expect(systemOf.user001).toEqual(systemOf.alice);
    expect((await csv(app, 'alice')).statusCode).toBe(200);
    expect((await csv(app, 'alice')).statusCode).toBe(200);
    const refused = await csv(app, 'alice');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Слишком много выгрузок CSV с вашей учётной записи: не более 2 в минуту. Повторите попытку позже.',
    );
    const english = await csv(app, 'alice', 'en');
    expect(english.statusCode).toBe(429);
    expect(english.json<{ detail: string }>().detail).toBe(
      'Too many CSV exports from your account: at most 2 a minute. Please try again later.',
    );
    // another user of the same system, another tenant, the e-mail variant of the same bucket
    expect((await csv(app, 'user001')).statusCode).toBe(200);
    expect((await csv(app, 'bob')).statusCode).toBe(200);
    expect((await get(app, 'alice', 'incs/get_async_csv/')).statusCode).toBe(429);
  });

  it('refuses every customer of a system over its limit, while another tenant and the staff pass', async () => {
    const app = await instance('export', 0, 2);
    expect((await csv(app, 'alice')).statusCode).toBe(200);
    expect((await csv(app, 'user001')).statusCode).toBe(200);
    const refused = await csv(app, 'alice', 'en');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Too many CSV exports for this system: at most 2 a minute for all its users together. Please try again later.',
    );
    expect((await csv(app, 'user001')).statusCode).toBe(429);
    expect((await csv(app, 'bob')).statusCode).toBe(200);
    expect((await csv(app, 'analyst')).statusCode).toBe(200);
  });

  it('counts a request on an object against the object’s system, staff apart from customers', async () => {
    const app = await instance('pdf', 0, 1);
    const [first, second] = systemOf.carol!;
    const inFirst = keyOf.get(first!)!;
    const inSecond = keyOf.get(second!)!;
    expect(systemOf.alice).toEqual([first]);
    expect((await pdf(app, 'alice', inFirst)).statusCode).toBe(200);
    // carol belongs to both systems: her PDF of the second system's incident counts there only
    expect((await pdf(app, 'carol', inSecond)).statusCode).toBe(200);
    expect((await pdf(app, 'carol', inFirst)).statusCode).toBe(429);
    // the analysts' budget on that system is their own
    expect((await pdf(app, 'analyst', inFirst)).statusCode).toBe(200);
    expect((await pdf(app, 'analyst', inFirst)).statusCode).toBe(429);
  });

  it('does not let another tenant’s incident key spend that tenant’s budget', async () => {
    const app = await instance('pdf', 0, 1);
    const foreign = keyOf.get(systemOf.bob![0]!)!;
    // alice's request for bob's incident is a 404 and counts against alice's own system
    expect((await pdf(app, 'alice', foreign)).statusCode).toBe(404);
    expect((await pdf(app, 'bob', foreign)).statusCode).toBe(200);
    expect((await pdf(app, 'alice', keyOf.get(systemOf.alice![0]!)!)).statusCode).toBe(429);
  });

  it('limits the analyst API’s incident creation per system of the new incident', async () => {
    const app = await instance('incident', 0, 1);
    const create = (system: number) =>
      app.inject({
        method: 'POST',
        url: '/api/v0/analyst/incidents/',
        headers: bearer(tokens.analyst!),
        payload: { system, issuetype: 1, primary_category: 8, priority: 'low', summary: 'Rate limit check' },
      });
    const a = systemOf.alice![0]!;
    const b = systemOf.bob![0]!;
    expect((await create(a)).statusCode).toBe(201);
    expect((await create(a)).statusCode).toBe(429);
    expect((await create(b)).statusCode).toBe(201);
  });
});
