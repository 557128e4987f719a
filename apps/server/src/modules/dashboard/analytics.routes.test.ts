import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics, AnalyticsItem, IncidentListResponse } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildVariedIncidents } from '../../test/builders.ts';

/** The newest built incident: 2026-11-20T12:00Z; the others go back about 150 days. */
const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const FUTURE = Date.now() + 3 * DAY;

interface Row {
  system_id: number;
  created: string;
  priority: string;
  status: string;
  category_id: number | null;
  secondary_category_ids: number[];
  sla_breached: boolean;
  tactics: string[];
  techniques: string[];
  observed_iocs: { ioc: string; ioc_type: string }[] | string;
}

let ctx: TestContext;
/** `customer` sees two of the three built systems, not `otherSystem`. */
let tokens: { analyst: string; customer: string };
let customerSystems: number[];
let otherSystem: number;

/** Every incident, read plainly: the numbers below are counted from these in JavaScript. */
const incidents = async () =>
  (
    await queryRows<Row>(
      ctx.database.db,
      sql`SELECT system_id, created::text AS created, priority, status, category_id, secondary_category_ids,
                 sla_breached, tactics, techniques, observed_iocs FROM incidents`,
    )
  ).map((r) => ({
    ...r,
    at: Date.parse(r.created.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')),
    iocs: (typeof r.observed_iocs === 'string' ? JSON.parse(r.observed_iocs) : r.observed_iocs) as {
      ioc: string;
      ioc_type: string;
    }[],
  }));
type Incident = Awaited<ReturnType<typeof incidents>>[number];

function tally(values: string[][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const vs of values) for (const v of new Set(vs)) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}
const asMap = (items: AnalyticsItem[]) => new Map(items.map((i) => [i.item, i.value]));
const pct = (a: number, b: number) => (b ? Math.round((a / b) * 10_000) / 100 : 0);

/** A top-N list is right when each value is exact and nothing left out counts more. */
function expectTop(items: AnalyticsItem[], expected: Map<string, number>, label: string) {
  expect(items.length, label).toBe(Math.min(5, expected.size));
  for (const i of items) expect(i.value, `${label} ${i.item}`).toBe(expected.get(i.item));
  const shown = new Set(items.map((i) => i.item));
  const least = Math.min(...items.map((i) => i.value));
  for (const [v, n] of expected) if (!shown.has(v)) expect(n, `${label} ${v}`).toBeLessThanOrEqual(least);
}

/** Checks every number of an analytics answer against the incidents that `match` selects. */
function expectAnalytics(a: Analytics, rows: Incident[], match: (r: Incident) => boolean, label: string) {
  const sel = rows.filter(match);
  expect(a.count, label).toBe(sel.length);
  expect(a.critical_count, label).toBe(sel.filter((r) => r.priority === 'critical').length);
  expect(a.waiting_for_customer, label).toBe(sel.filter((r) => r.status === 'waiting_for_customer').length);
  const breached = sel.filter((r) => r.sla_breached).length;
  expect(a.sla_breached_count, label).toBe(breached);
  expect(a.sla_breached, label).toBe(pct(breached, sel.length));
  expect(asMap(a.priority), label).toEqual(tally(sel.map((r) => [r.priority])));
  expect(asMap(a.status), label).toEqual(tally(sel.map((r) => [r.status])));
  expect(asMap(a.category), label).toEqual(
    tally(
      sel.map((r) => [...r.secondary_category_ids, ...(r.category_id ? [r.category_id] : [])].map(String)),
    ),
  );
  expect(asMap(a.mitre), label).toEqual(tally(sel.map((r) => r.techniques)));
  expect(asMap(a.tactics), label).toEqual(tally(sel.map((r) => r.tactics)));
  const iocs = (types: string[]) =>
    tally(sel.map((r) => r.iocs.filter((i) => types.includes(i.ioc_type)).map((i) => i.ioc.toLowerCase())));
  expectTop(a.top_domains, iocs(['fqdn', 'domain']), `${label} domains`);
  expectTop(a.top_ips, iocs(['ipv4', 'ipv6', 'ip']), `${label} ips`);
  expect(
    a.timeline.reduce((s, t) => s + t.value, 0),
    label,
  ).toBe(sel.length);
  for (const t of a.timeline) {
    const step = t.timespan === 'hour' ? 3_600_000 : DAY;
    expect(t.value, `${label} ${new Date(t.item).toISOString()}`).toBe(
      sel.filter((r) => r.at >= t.item && r.at < t.item + step).length,
    );
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [a, b, c] = [await buildSystem(ctx), await buildSystem(ctx), await buildSystem(ctx)];
  customerSystems = [a.id, c.id];
  otherSystem = b.id;
  const customer = await buildCustomer(ctx, customerSystems);
  tokens = { analyst: await (await buildAnalyst(ctx)).login(), customer: await customer.login() };
  await buildVariedIncidents(
    ctx,
    [
      { id: a.id, count: 40, assigneeId: customer.id },
      { id: b.id, count: 30 },
      { id: c.id, count: 30, assigneeId: customer.id },
    ],
    NOW,
  );
});
afterAll(() => ctx.close());

const get = async (token: string, query: string) => {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/incs/analytics/?${query}`,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Analytics>();
};

/** Ranges: whole days with ragged ends, a range inside one day (hourly), and none. */
const gte30 = NOW - 30 * DAY + 4_321_000;
const ranges: { query: string; in: (r: Incident) => boolean }[] = [
  { query: `created__gte=${gte30}&created__lte=${NOW}`, in: (r) => r.at >= gte30 && r.at <= NOW },
  {
    query: `created__gte=${NOW - 90 * DAY}&created__lte=${NOW - 20 * DAY - 1}`,
    in: (r) => r.at >= NOW - 90 * DAY && r.at <= NOW - 20 * DAY - 1,
  },
  {
    query: `created__gte=${NOW - 36 * 3_600_000}&created__lte=${NOW}`,
    in: (r) => r.at >= NOW - 36 * 3_600_000 && r.at <= NOW,
  },
  { query: '', in: () => true },
  // reaching into the future: the last day is read whole from the daily table
  {
    query: `created__gte=${NOW - 10 * DAY + 123}&created__lte=${FUTURE}`,
    in: (r) => r.at >= NOW - 10 * DAY + 123 && r.at <= FUTURE,
  },
];

describe('GET /soc/incs/analytics/', () => {
  it('matches an independent count for analysts, per range, system and extra filter', async () => {
    const rows = await incidents();
    // the built data has all kinds of values, so that no list below is compared empty
    const all = await get(tokens.analyst, '');
    for (const list of [
      all.priority,
      all.status,
      all.category,
      all.mitre,
      all.tactics,
      all.top_domains,
      all.top_ips,
    ]) {
      expect(list.length).toBeGreaterThan(0);
    }
    expect(all.sla_breached_count).toBeGreaterThan(0);
    for (const range of ranges) {
      expectAnalytics(await get(tokens.analyst, range.query), rows, range.in, `analyst ${range.query}`);
      const sys = customerSystems[0]!;
      expectAnalytics(
        await get(tokens.analyst, `${range.query}&system__in=${sys}`),
        rows,
        (r) => range.in(r) && r.system_id === sys,
        `analyst system ${range.query}`,
      );
      // any other filter is counted over the incidents
      expectAnalytics(
        await get(tokens.analyst, `${range.query}&priority__in=high,critical&sla_breached=false`),
        rows,
        (r) => range.in(r) && ['high', 'critical'].includes(r.priority) && !r.sla_breached,
        `analyst filtered ${range.query}`,
      );
    }
  });

  it('limits a customer to their systems (another tenant’s system counts nothing)', async () => {
    const rows = await incidents();
    const mine = (r: Incident) => customerSystems.includes(r.system_id);
    for (const range of ranges) {
      expectAnalytics(
        await get(tokens.customer, range.query),
        rows,
        (r) => range.in(r) && mine(r),
        'customer',
      );
    }
    const foreign = await get(tokens.customer, `system__in=${otherSystem}`);
    expect(foreign.count).toBe(0);
    expect(foreign.timeline).toEqual([]);
    expect((await get(tokens.customer, `system__in=${otherSystem}&status__in=closed`)).count).toBe(0);
  });

  it('gives the previous period of the same length', async () => {
    const rows = await incidents();
    const gte = NOW - 7 * DAY + 1;
    const a = await get(tokens.customer, `created__gte=${gte}&created__lte=${NOW}&get_prev=True`);
    const prev = rows.filter(
      (r) => customerSystems.includes(r.system_id) && r.at >= gte - 7 * DAY && r.at <= gte - 1,
    );
    expect(a.previous).toEqual({
      count: prev.length,
      sla_breached: pct(prev.filter((r) => r.sla_breached).length, prev.length),
      created__gte: gte - 7 * DAY,
      created__lte: gte - 1,
    });
    expect((await get(tokens.customer, `created__gte=${gte}&created__lte=${NOW}`)).previous).toBeNull();
  });

  it('agrees with the incident list: a chart value opens the list with the same count', async () => {
    const range = `created__gte=${gte30}&created__lte=${NOW}`;
    const a = await get(tokens.customer, range);
    const drill = [
      ...a.priority.map((i) => ({ q: `priority__in=${i.item}`, n: i.value })),
      ...a.status.map((i) => ({ q: `status__in=${i.item}`, n: i.value })),
      ...a.category.map((i) => ({ q: `category__in=${i.item}`, n: i.value })),
      ...a.mitre.slice(0, 5).map((i) => ({ q: `technique__in=${i.item}`, n: i.value })),
      { q: 'sla_breached=true', n: a.sla_breached_count },
    ];
    expect(drill.length).toBeGreaterThan(5);
    for (const { q, n } of drill) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/soc/incs/?${range}&${q}&limit=1`,
        headers: bearer(tokens.customer),
      });
      expect(res.json<IncidentListResponse>().total, q).toBe(n);
    }
  });

  it('stays exact through inserts, updates and deletes (the daily table’s trigger)', async () => {
    const db = ctx.database.db;
    await db.execute(sql`UPDATE incidents SET status = 'closed', priority = 'critical' WHERE key % 7 = 0`);
    await db.execute(sql`UPDATE incidents SET created = created - interval '3 days 5 hours',
                          techniques = '{T1110}', tactics = '{credential-access}' WHERE key % 5 = 0`);
    await db.execute(sql`UPDATE incidents SET system_id = ${customerSystems[1]!}, sla_breached = NOT sla_breached,
                          secondary_category_ids = '{}' WHERE key % 6 = 0`);
    await db.execute(sql`UPDATE incidents SET observed_iocs = '[{"ioc":"Evil.Example.NET","ioc_type":"fqdn","category":[]},
                          {"ioc":"192.0.2.7","ioc_type":"ipv4","category":[]}]'::jsonb WHERE key % 4 = 0`);
    await db.execute(sql`INSERT INTO incidents (system_id, issue_type_id, category_id, summary, priority, techniques, created)
                          SELECT system_id, issue_type_id, category_id, summary || ' copy', priority, techniques,
                                 created + interval '1 hour' FROM incidents WHERE key % 9 = 1`);
    await db.execute(sql`DELETE FROM incidents WHERE key % 11 = 0`);
    const rows = await incidents();
    for (const range of ranges) {
      expectAnalytics(await get(tokens.analyst, range.query), rows, range.in, `after writes ${range.query}`);
      expectAnalytics(
        await get(tokens.customer, range.query),
        rows,
        (r) => range.in(r) && customerSystems.includes(r.system_id),
        `customer after writes ${range.query}`,
      );
    }
  });

  it('keeps the hourly table equal to a recount per UTC hour, whatever the session time zone', async () => {
    const db = ctx.database.db;
    // a zone half an hour off UTC: an hour bucket taken in the session's zone would be misplaced
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL TimeZone = 'Asia/Kolkata'`);
      await tx.execute(sql`UPDATE incidents SET created = created + interval '47 minutes', priority = 'high'
                            WHERE key % 13 = 0`);
      await tx.execute(sql`INSERT INTO incidents (system_id, issue_type_id, category_id, summary, priority, tactics, created)
                            SELECT system_id, issue_type_id, category_id, summary || ' again', 'low', '{discovery}',
                                   created - interval '30 minutes' FROM incidents WHERE key % 10 = 3`);
      await tx.execute(sql`DELETE FROM incidents WHERE key % 17 = 0`);
    });
    const recount = await queryRows<{ hour: string; dim: string; value: string; n: string }>(
      db,
      sql`SELECT to_char(date_trunc('hour', i.created AT TIME ZONE 'UTC'), 'YYYY-MM-DD HH24') AS hour,
                 k.dim, k.value, count(*)::text AS n
            FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k GROUP BY 1, 2, 3`,
    );
    const kept = await queryRows<{ hour: string; dim: string; value: string; n: string }>(
      db,
      sql`SELECT to_char(h.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24') AS hour, h.dim, h.value, h.n::text AS n
            FROM incident_hourly h WHERE h.n <> 0`,
    );
    const key = (r: { hour: string; dim: string; value: string; n: string }) =>
      `${r.hour}|${r.dim}|${r.value}|${r.n}`;
    expect(recount.length).toBeGreaterThan(100);
    expect(kept.map(key).sort()).toEqual(recount.map(key).sort());
  });

  it('counts incidents exactly at the hour boundaries of a range once (closed ends)', async () => {
    const db = ctx.database.db;
    const hour = Math.floor((NOW - 2 * DAY) / 3_600_000) * 3_600_000;
    const at = (ms: number) => new Date(ms).toISOString();
    await db.execute(sql`INSERT INTO incidents (system_id, issue_type_id, category_id, summary, priority, created)
                          SELECT system_id, issue_type_id, category_id, 'boundary', 'critical', t.at::timestamptz
                            FROM (SELECT * FROM incidents ORDER BY key LIMIT 1) i,
                                 (VALUES (${at(hour)}), (${at(hour + 3_600_000)}), (${at(hour + 5 * 3_600_000)}),
                                         (${at(hour + 5 * 3_600_000 - 1)})) AS t(at)`);
    const rows = await incidents();
    for (const [gte, lte] of [
      [hour, hour],
      [hour, hour + 3_600_000],
      [hour + 1, hour + 5 * 3_600_000 - 1],
      [hour - 7 * 3_600_000 + 1, hour + 5 * 3_600_000],
      [hour - 3 * DAY, hour + 3_600_000],
      [hour - 3 * DAY + 1, hour + 3_600_000 - 1],
    ] as const) {
      const query = `created__gte=${gte}&created__lte=${lte}&get_prev=True`;
      const a = await get(tokens.analyst, query);
      expectAnalytics(a, rows, (r) => r.at >= gte && r.at <= lte, `boundary ${at(gte)}..${at(lte)}`);
      const prev = rows.filter((r) => r.at >= gte - (lte - gte + 1) && r.at <= gte - 1);
      expect(a.previous?.count, `previous ${query}`).toBe(prev.length);
      expectAnalytics(
        await get(tokens.customer, query),
        rows,
        (r) => r.at >= gte && r.at <= lte && customerSystems.includes(r.system_id),
        `customer boundary ${at(gte)}..${at(lte)}`,
      );
    }
  });

  it('refuses unknown parameters and needs a session', async () => {
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/soc/incs/analytics/?colour=red',
      headers: bearer(tokens.customer),
    });
    expect(bad.statusCode).toBe(400);
    const anon = await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/analytics/' });
    expect(anon.statusCode).toBe(401);
  });
});
