import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Eps } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildCustomer, buildLogSource, buildService, buildSystem } from '../../test/builders.ts';
import { HOUR_MS, epsExcess, epsTimeline } from './eps.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const h = (i: number, value: number) => ({ start: T0 + i * HOUR_MS, value });
/** The end of the built hourly series: 2026-11-20T12:00Z. */
const END = Date.parse('2026-11-20T12:00:00Z');

/**
 * Two log sources of each system with `hours` hourly counts up to END, up to 2,000 events per
 * second and varying by hour and source (so that some hours exceed a contract of 1,200 EPS).
 */
async function buildHourlyEvents(ctx: TestContext, systemIds: number[], hours: number): Promise<void> {
  for (const systemId of systemIds) {
    for (let k = 0; k < 2; k++) {
      const source = await buildLogSource(ctx, systemId);
      await ctx.database.db.execute(
        sql`INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
            SELECT ${source.id}, ${systemId}, ${new Date(END).toISOString()}::timestamptz - g * interval '1 hour',
                   (g * 7919 + ${source.id} * 104729) % 3600000
              FROM generate_series(0, ${hours - 1}::int) g`,
      );
    }
  }
}

describe('EPS excess over the contracted EPS (hand-made series)', () => {
  // hours 0..9: two runs above 1000 (hours 2–4 and 7), one value exactly at the contract (5)
  const series = [
    h(0, 400),
    h(1, 999.99),
    h(2, 1200),
    h(3, 1800.5),
    h(4, 1001),
    h(5, 1000),
    h(6, 10),
    h(7, 2500),
    h(8, 0),
    // a gap: hour 9 has no data, hour 10 is above and is a run of its own
    h(10, 1100),
  ];

  it('merges consecutive hours above it into runs and sums their duration', () => {
    const e = epsExcess(series, 1000);
    expect(e.excess_buckets).toEqual([
      { start: T0 + 2 * HOUR_MS, end: T0 + 5 * HOUR_MS },
      { start: T0 + 7 * HOUR_MS, end: T0 + 8 * HOUR_MS },
      { start: T0 + 10 * HOUR_MS, end: T0 + 11 * HOUR_MS },
    ]);
    expect(e.excess_duration).toBe(5 * 3600);
    expect(e.excess_max_value).toBe(2500);
    expect(e.excess).toEqual({
      excess_duration: 5 * 3600,
      max_value: 2500,
      excess_count: 3,
      timeline_buckets: [2, 3, 4, 7, 10].map((i) => ({
        start: T0 + i * HOUR_MS,
        end: T0 + (i + 1) * HOUR_MS,
        value: series.find((s) => s.start === T0 + i * HOUR_MS)!.value,
      })),
    });
  });

  it('has no excess without a contract or below it', () => {
    for (const contracted of [0, 2500, 5000]) {
      const e = epsExcess(series, contracted);
      expect(e.excess_buckets).toEqual([]);
      expect(e.excess_duration).toBe(0);
      expect(e.excess.excess_count).toBe(0);
    }
  });

  it('averages the hours of a day for the daily timeline', () => {
    expect(epsTimeline([h(0, 10), h(1, 20), h(24, 5)], 'day')).toEqual([
      { item: T0, value: 15, timespan: 'day' },
      { item: T0 + 24 * HOUR_MS, value: 5, timespan: 'day' },
    ]);
    expect(epsTimeline([h(0, 10)], 'hour')).toEqual([{ item: T0, value: 10, timespan: 'hour' }]);
  });
});

describe('GET /soc/dashboards/eps/', () => {
  let ctx: TestContext;
  /** A customer of two systems (contracts of 500 and 700 EPS) and another system's events. */
  let customer: string;
  let customerSystems: number[];
  beforeAll(async () => {
    ctx = await createTestContext({ incidents: 0 });
    const [a, b, other] = [await buildSystem(ctx), await buildSystem(ctx), await buildSystem(ctx)];
    customerSystems = [a.id, b.id];
    await buildService(ctx, a.id, { contractedEps: 500 });
    await buildService(ctx, b.id, { contractedEps: 700 });
    await buildService(ctx, other.id, { contractedEps: 100_000 });
    await buildHourlyEvents(ctx, [a.id, b.id, other.id], 12 * 24);
    customer = await (await buildCustomer(ctx, customerSystems)).login();
  });
  afterAll(() => ctx.close());

  it('sums the hourly events of the caller’s log sources and finds the hours above the contract', async () => {
    const end = END;
    const from = end - 10 * 86_400_000;
    const list = sql.join(
      customerSystems.map((id) => sql`${id}`),
      sql`, `,
    );
    const hours = await queryRows<{ t: string; n: string }>(
      ctx.database.db,
      sql`SELECT (extract(epoch FROM bucket_start) * 1000)::bigint::text AS t, sum(events)::text AS n
            FROM log_source_event_buckets WHERE system_id IN (${list})
             AND bucket_start >= ${new Date(from).toISOString()}::timestamptz
             AND bucket_start <= ${new Date(end).toISOString()}::timestamptz
           GROUP BY bucket_start ORDER BY bucket_start`,
    );
    const [c] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`SELECT coalesce(sum(contracted_eps), 0)::int AS n FROM services WHERE system_id IN (${list})`,
    );
    expect(hours.length).toBeGreaterThan(100);
    expect(c!.n).toBe(1200);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/dashboards/eps/?created__gte=${from}&created__lte=${end}`,
      headers: bearer(customer),
    });
    expect(res.statusCode, res.body).toBe(200);
    const eps = res.json<Eps>();
    expect(eps.contracted_eps).toBe(c!.n);
    const hourly = hours.map((r) => ({
      start: Number(r.t),
      value: Math.round((Number(r.n) / 3600) * 100) / 100,
    }));
    expect(eps.timeline).toEqual(epsTimeline(hourly, 'day'));
    const above = hourly.filter((x) => c!.n > 0 && x.value > c!.n);
    expect(above.length).toBeGreaterThan(0);
    expect(above.length).toBeLessThan(hourly.length);
    expect(eps.excess.timeline_buckets.map((b) => b.start)).toEqual(above.map((x) => x.start));
    expect(eps.excess_duration).toBe(above.length * 3600);

    // another tenant's system adds nothing
    const other = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/dashboards/eps/?system__in=999999`,
      headers: bearer(customer),
    });
    expect(other.json<Eps>()).toMatchObject({ timeline: [], contracted_eps: 0, excess_duration: 0 });
  });
});

describe('eps_hourly (the triggers on log_source_event_buckets)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ incidents: 0 });
    await buildHourlyEvents(ctx, [(await buildSystem(ctx)).id, (await buildSystem(ctx)).id], 5 * 24);
  });
  afterAll(() => ctx.close());

  const compare = async () => {
    const rows = await queryRows<{ diff: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS diff FROM (
            SELECT s.id AS system_id, b.bucket_start, sum(b.events) AS events
              FROM log_source_event_buckets b CROSS JOIN LATERAL (VALUES (b.system_id), (0)) AS s(id)
             GROUP BY 1, 2) raw
          FULL JOIN (SELECT * FROM eps_hourly WHERE events <> 0) h USING (system_id, bucket_start)
         WHERE raw.events IS DISTINCT FROM h.events`,
    );
    return rows[0]!.diff;
  };

  it('equals the sums of the sources per hour through inserts, updates and deletes', async () => {
    const db = ctx.database.db;
    const [n] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM eps_hourly`);
    expect(n!.n).toBeGreaterThan(100);
    expect(await compare()).toBe(0);
    await db.execute(
      sql`UPDATE log_source_event_buckets SET events = events * 2 + 1 WHERE log_source_id % 3 = 0`,
    );
    await db.execute(sql`DELETE FROM log_source_event_buckets WHERE log_source_id % 4 = 1`);
    await db.execute(sql`INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
                          SELECT log_source_id, system_id, bucket_start + interval '100 days', events + 7
                            FROM log_source_event_buckets WHERE log_source_id % 5 = 2`);
    await db.execute(sql`INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
                          SELECT log_source_id, system_id, bucket_start, 5 FROM log_source_event_buckets
                           WHERE log_source_id % 7 = 3
                          ON CONFLICT (log_source_id, bucket_start) DO UPDATE SET events = excluded.events`);
    expect(await compare()).toBe(0);
  });
});
