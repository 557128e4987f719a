import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { RouteLimitBucket } from '../core/config.ts';
import { routeLimitsOff } from '../core/config.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/index.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';
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
  ctx = await createTestContext({ incidents: 0 });
  // customer and colleague share system A, otherTenant has B, twoSystems sees A and C
  const [a, b, c] = [await buildSystem(ctx), await buildSystem(ctx), await buildSystem(ctx)];
  Object.assign(systemOf, {
    customer: [a.id],
    colleague: [a.id],
    otherTenant: [b.id],
    twoSystems: [a.id, c.id],
  });
  for (const [name, systems] of Object.entries(systemOf))
    tokens[name] = await (await buildCustomer(ctx, systems)).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  for (const system of [a, b, c]) keyOf.set(system.id, (await buildIncident(ctx, system.id)).key);
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
    expect(systemOf.colleague).toEqual(systemOf.customer);
    expect((await csv(app, 'customer')).statusCode).toBe(200);
    expect((await csv(app, 'customer')).statusCode).toBe(200);
    const refused = await csv(app, 'customer');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Слишком много выгрузок CSV с вашей учётной записи: не более 2 в минуту. Повторите попытку позже.',
    );
    const english = await csv(app, 'customer', 'en');
    expect(english.statusCode).toBe(429);
    expect(english.json<{ detail: string }>().detail).toBe(
      'Too many CSV exports from your account: at most 2 a minute. Please try again later.',
    );
    // another user of the same system, another tenant, the e-mail variant of the same bucket
    expect((await csv(app, 'colleague')).statusCode).toBe(200);
    expect((await csv(app, 'otherTenant')).statusCode).toBe(200);
    expect((await get(app, 'customer', 'incs/get_async_csv/')).statusCode).toBe(429);
  });

  it('refuses every customer of a system over its limit, while another tenant and the staff pass', async () => {
    const app = await instance('export', 0, 2);
    expect((await csv(app, 'customer')).statusCode).toBe(200);
    expect((await csv(app, 'colleague')).statusCode).toBe(200);
    const refused = await csv(app, 'customer', 'en');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Too many CSV exports for this system: at most 2 a minute for all its users together. Please try again later.',
    );
    expect((await csv(app, 'colleague')).statusCode).toBe(429);
    expect((await csv(app, 'otherTenant')).statusCode).toBe(200);
    expect((await csv(app, 'analyst')).statusCode).toBe(200);
  });

  it('counts a request on an object against the object’s system, staff apart from customers', async () => {
    const app = await instance('pdf', 0, 1);
    const [first, second] = systemOf.twoSystems!;
    const inFirst = keyOf.get(first!)!;
    const inSecond = keyOf.get(second!)!;
    expect(systemOf.customer).toEqual([first]);
    expect((await pdf(app, 'customer', inFirst)).statusCode).toBe(200);
    // twoSystems belongs to both systems: their PDF of the second system's incident counts there only
    expect((await pdf(app, 'twoSystems', inSecond)).statusCode).toBe(200);
    expect((await pdf(app, 'twoSystems', inFirst)).statusCode).toBe(429);
    // the analysts' budget on that system is their own
    expect((await pdf(app, 'analyst', inFirst)).statusCode).toBe(200);
    expect((await pdf(app, 'analyst', inFirst)).statusCode).toBe(429);
  });

  it('does not let another tenant’s incident key spend that tenant’s budget', async () => {
    const app = await instance('pdf', 0, 1);
    const foreign = keyOf.get(systemOf.otherTenant![0]!)!;
    // the customer's request for the other tenant's incident is a 404 and counts against their own system
    expect((await pdf(app, 'customer', foreign)).statusCode).toBe(404);
    expect((await pdf(app, 'otherTenant', foreign)).statusCode).toBe(200);
    expect((await pdf(app, 'customer', keyOf.get(systemOf.customer![0]!)!)).statusCode).toBe(429);
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
    const a = systemOf.customer![0]!;
    const b = systemOf.otherTenant![0]!;
    expect((await create(a)).statusCode).toBe(201);
    expect((await create(a)).statusCode).toBe(429);
    expect((await create(b)).statusCode).toBe(201);
  });
});

describe('limits of export-like routes (issue 37 item 9)', () => {
  /** Each request once more than the limit of `max`: the last answer must be the 429. */
  async function expectLimited(
    app: FastifyInstance,
    requests: (() => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>)[],
    ok: number,
  ) {
    for (const send of requests.slice(0, -1)) {
      const res = await send();
      expect(res.statusCode, res.body).toBe(ok);
    }
    const refused = await requests.at(-1)!();
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    return refused;
  }

  it('limits the IOC feed in every format, per user and per system', async () => {
    const perUser = await instance('feed', 3, 0);
    const feed = (app: FastifyInstance, user: string, format: string) => () =>
      get(app, user, `iocs/feed/?format=${format}`, 'en');
    const refused = await expectLimited(
      perUser,
      ['stix', 'csv', 'txt', 'stix'].map((f) => feed(perUser, 'customer', f)),
      200,
    );
    expect((JSON.parse(refused.body) as { detail: string }).detail).toBe(
      'Too many IOC feed downloads from your account: at most 3 a minute. Please try again later.',
    );
    expect((await feed(perUser, 'colleague', 'txt')()).statusCode).toBe(200);
    const perSystem = await instance('feed', 0, 2);
    await expectLimited(
      perSystem,
      [
        feed(perSystem, 'customer', 'txt'),
        feed(perSystem, 'colleague', 'csv'),
        feed(perSystem, 'customer', 'stix'),
      ],
      200,
    );
    expect((await feed(perSystem, 'otherTenant', 'txt')()).statusCode).toBe(200);
  });

  it('limits the audit CSV with the other CSV exports', async () => {
    const app = await instance('export', 2, 0);
    await expectLimited(
      app,
      [
        () => get(app, 'customer', 'incs/get_csv/'),
        () =>
          app.inject({
            method: 'GET',
            url: '/api/v0/audit/csv/',
            headers: bearer(tokens.customer!),
          }),
        () =>
          app.inject({
            method: 'GET',
            url: '/api/v0/audit/csv/',
            headers: bearer(tokens.customer!),
          }),
      ],
      200,
    );
  });

  it('limits the ATT&CK Navigator layers', async () => {
    const app = await instance('layer', 2, 0);
    const refused = await expectLimited(
      app,
      [
        () => get(app, 'customer', 'rules/coverage/layer/'),
        () => get(app, 'customer', 'incs/analytics/mitre_layer/'),
        () => get(app, 'customer', 'rules/coverage/layer/'),
      ],
      200,
    );
    expect((JSON.parse(refused.body) as { detail: string }).detail).toBe(
      'Слишком много слоёв ATT&CK Navigator с вашей учётной записи: не более 2 в минуту. Повторите попытку позже.',
    );
  });

  it('limits webhook test events and "send again" per user and per system of the endpoint', async () => {
    const endpointOf = async (system: number) => {
      const [e] = await ctx.database.db
        .insert(webhookEndpoints)
        .values({
          systemId: system,
          url: 'https://receiver.example/hook',
          events: [],
          secretSealed: 'unused',
        })
        .returning({ id: webhookEndpoints.id });
      const [d] = await ctx.database.db
        .insert(webhookDeliveries)
        .values({ endpointId: e!.id, messageId: 'msg_limit', event: 'webhook.test', status: 'succeeded' })
        .returning({ id: webhookDeliveries.id });
      return { id: e!.id, delivery: d!.id };
    };
    const own = await endpointOf(systemOf.customer![0]!);
    const foreign = await endpointOf(systemOf.otherTenant![0]!);
    const post = (app: FastifyInstance, user: string, url: string) => () =>
      app.inject({ method: 'POST', url: `/api/v0/soc/webhooks/${url}`, headers: bearer(tokens[user]!) });
    const test = (app: FastifyInstance, user: string, e = own) => post(app, user, `${e.id}/test/`);
    const resend = (app: FastifyInstance, user: string, e = own) =>
      post(app, user, `${e.id}/deliveries/${e.delivery}/resend/`);

    const perUser = await instance('webhook_test', 2, 0);
    await expectLimited(
      perUser,
      [test(perUser, 'customer'), resend(perUser, 'customer'), test(perUser, 'customer')],
      202,
    );
    expect((await test(perUser, 'colleague')()).statusCode).toBe(202);

    const perSystem = await instance('webhook_test', 0, 2);
    await expectLimited(
      perSystem,
      [test(perSystem, 'customer'), resend(perSystem, 'colleague'), test(perSystem, 'colleague')],
      202,
    );
    // another tenant's endpoint counts as the caller's own (refused here like a missing one)…
    const missing = { id: foreign.id + 1000, delivery: 1 };
    expect((await test(perSystem, 'customer', foreign)()).statusCode).toBe(429);
    expect((await test(perSystem, 'customer', missing)()).statusCode).toBe(429);
    // …and spends nothing of its tenant's budget
    expect((await test(perSystem, 'otherTenant', foreign)()).statusCode).toBe(202);
    expect((await test(perSystem, 'otherTenant', foreign)()).statusCode).toBe(202);
  });
});
