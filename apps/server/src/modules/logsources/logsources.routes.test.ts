import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogSourceListResponse, LogSourceSummary } from '@soc/contracts';
import { logSourceEventBuckets, logSources } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem } from '../../test/builders.ts';
import { buildAnalyst, buildCustomer, buildLogSource, buildSystem } from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
const HOUR = 3_600_000;
/** The system of the customer's three sources, and another one's with a source of its own. */
let own: BuiltSystem;
let other: BuiltSystem;
const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(tokens[user]!) });
const list = async (user: string, query = '') => {
  const res = await get(user, `/logsources/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LogSourceListResponse>();
};

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  tokens.stranger = await (await buildCustomer(ctx, [other.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  await buildLogSource(ctx, other.id, { lastEventAt: new Date() });
  // three sources of the customer's system relative to the real clock
  const db = ctx.database.db;
  const now = Date.now();
  const [live, quiet] = await db
    .insert(logSources)
    .values([
      {
        systemId: own.id,
        name: 'zz live firewall',
        sourceType: 'zz-fw',
        host: 'zz-fw-01',
        lastEventAt: new Date(now - 60_000),
      },
      {
        systemId: own.id,
        name: 'zz quiet proxy',
        sourceType: 'zz-fw',
        host: 'zz-px-01',
        silenceThresholdMinutes: 30,
        lastEventAt: new Date(now - 2 * HOUR),
      },
      {
        systemId: own.id,
        name: 'zz switched off',
        sourceType: 'zz-os',
        host: 'zz-os-01',
        enabled: false,
        lastEventAt: null,
      },
    ])
    .returning();
  const hour = Math.floor(now / HOUR) * HOUR;
  await db.insert(logSourceEventBuckets).values([
    // the current hour is still filling and does not count
    { logSourceId: live!.id, systemId: own.id, bucketStart: new Date(hour), events: 999_999 },
    { logSourceId: live!.id, systemId: own.id, bucketStart: new Date(hour - HOUR), events: 36_000 },
    ...Array.from({ length: 23 }, (_, k) => ({
      logSourceId: live!.id,
      systemId: own.id,
      bucketStart: new Date(hour - (k + 2) * HOUR),
      events: 36_000,
    })),
    // older than a day
    { logSourceId: live!.id, systemId: own.id, bucketStart: new Date(hour - 30 * HOUR), events: 999_999 },
    { logSourceId: quiet!.id, systemId: own.id, bucketStart: new Date(hour - 3 * HOUR), events: 8640 },
  ]);
});
afterAll(async () => ctx?.close());

describe('GET /soc/logsources/', () => {
  it('answers status, last event and EPS of the last hour and day', async () => {
    const page = await list('customer', '?page_size=100&search=zz');
    const byName = Object.fromEntries(page.results.map((s) => [s.name, s]));
    expect(byName['zz live firewall']).toMatchObject({
      status: 'active',
      eps_last_hour: 10,
      eps_last_day: 10,
    });
    expect(byName['zz quiet proxy']).toMatchObject({ status: 'silent', eps_last_hour: 0, eps_last_day: 0.1 });
    expect(byName['zz switched off']).toMatchObject({
      status: 'disabled',
      last_event: null,
      eps_last_day: 0,
    });
  });

  it('keeps customers to their own systems', async () => {
    expect((await list('stranger', '?search=zz')).total).toBe(0);
    const theirs = await list('stranger');
    expect(theirs.total).toBe(1);
    expect(theirs.results.every((s) => s.system.is_id === other.isId)).toBe(true);
    expect((await list('analyst', '?search=zz')).total).toBe(3);
  });

  it('filters by status, type and host search, and sorts', async () => {
    expect(
      (await list('customer', '?search=zz&status__in=silent,disabled')).results.map((s) => s.name).sort(),
    ).toEqual(['zz quiet proxy', 'zz switched off']);
    expect((await list('customer', '?source_type__in=zz-os')).results.map((s) => s.name)).toEqual([
      'zz switched off',
    ]);
    expect((await list('customer', '?search=zz-px')).results.map((s) => s.name)).toEqual(['zz quiet proxy']);
    const names = (await list('customer', '?search=zz&ordering=-name')).results.map((s) => s.name);
    expect(names).toEqual(['zz switched off', 'zz quiet proxy', 'zz live firewall']);
    const recent = (await list('customer', '?search=zz&ordering=-last_event')).results.map((s) => s.name);
    expect(recent).toEqual(['zz live firewall', 'zz quiet proxy', 'zz switched off']);
    expect((await get('customer', '/logsources/?status__in=sleepy')).statusCode).toBe(400);
  });
});

describe('GET /soc/logsources/summary/', () => {
  it('counts sources per status and per type', async () => {
    const res = await get('customer', '/logsources/summary/?search=zz');
    expect(res.statusCode).toBe(200);
    const summary = res.json<LogSourceSummary>();
    expect(summary).toMatchObject({
      total: 3,
      active: 1,
      silent: 1,
      disabled: 1,
      eps_last_hour: 10,
      eps_last_day: 10.1,
    });
    expect(summary.by_type).toEqual([
      { source_type: 'zz-fw', total: 2, active: 1, silent: 1, disabled: 0 },
      { source_type: 'zz-os', total: 1, active: 0, silent: 0, disabled: 1 },
    ]);
    const theirs = (await get('stranger', '/logsources/summary/?search=zz')).json<LogSourceSummary>();
    expect(theirs.total).toBe(0);
  });
});
