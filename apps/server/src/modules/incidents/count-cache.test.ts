import { sql } from 'drizzle-orm';
import { INCIDENT_STATUSES } from '@soc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildVariedIncidents } from '../../test/builders.ts';
import { countCacheKey } from './count-cache.ts';

describe('countCacheKey', () => {
  it('is the same for the same filters in any order, and differs by scope', () => {
    const a = countCacheKey({ search: 'x', status__in: ['closed'] }, [1, 2]);
    const b = countCacheKey({ status__in: ['closed'], search: 'x' }, [1, 2]);
    expect(a).toBe(b);
    expect(countCacheKey({ search: 'x', status__in: ['closed'] }, [1])).not.toBe(a);
    expect(countCacheKey({ search: 'x', status__in: ['closed'] }, null)).not.toBe(a);
  });

  it('leaves uncached the filters that read other tables', () => {
    expect(countCacheKey({ service__in: ['Vision'], search: 'x' }, null)).toBeNull();
    expect(countCacheKey({ rule_id__in: [1], search: 'x' }, null)).toBeNull();
  });
});

describe('list totals stay exact across writes', () => {
  let ctx: TestContext;
  const tokens: Record<string, string> = {};
  const total = async (user: string, query: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/?limit=1&${query}`,
      headers: bearer(tokens[user]!),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ total: number }>().total;
  };
  const realCount = async (where: string) =>
    (
      await queryRows<{ n: number }>(
        ctx.database.db,
        sql.raw(`SELECT count(*)::int AS n FROM incidents WHERE ${where}`),
      )
    )[0]!.n;

  beforeAll(async () => {
    ctx = await createTestContext({ incidents: 0 });
    const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
    const customer = await buildCustomer(ctx, [own.id]);
    await buildVariedIncidents(ctx, [
      { id: own.id, count: 30, assigneeId: customer.id },
      { id: other.id, count: 30 },
    ]);
    tokens.customer = await customer.login();
    tokens.analyst = await (await buildAnalyst(ctx)).login();
  });
  afterAll(() => ctx.close());

  it('counts a new incident in the next list of a search, right after it is registered', async () => {
    const query = 'search=zebracorn&priority__in=high,critical';
    expect(await total('analyst', query)).toBe(0);
    expect(await total('analyst', query)).toBe(0);
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(tokens.customer!) });
    const types = (await get('/api/v0/soc/issue_types/')).json<{ results: { id: number; code: string }[] }>();
    const issuetype = types.results.find((t) => t.code === 'incident')!.id;
    const cats = (await get(`/api/v0/soc/issues/${issuetype}/categories/?limit=30`)).json<{
      results: { id: number }[];
    }>().results;
    const system = (await get('/api/v0/soc/systems/')).json<{ results: { id: number }[] }>().results[0]!;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/incs/',
      headers: bearer(tokens.customer!),
      payload: {
        system: system.id,
        summary: 'Zebracorn beacon on the mail gateway',
        issuetype,
        priority: 'high',
        description: 'Beaconing every 60 s.',
        primary_category: cats[0]!.id,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    // no wait for the NOTIFY: the version read by the hit already moved
    expect(await total('analyst', query)).toBe(1);
    expect(await total('customer', query)).toBe(1);
  });

  it('follows changes written straight to the database (jobs, the analyst API, other instances)', async () => {
    const query = `search=lsass&status__in=${INCIDENT_STATUSES.join(',')}`;
    const where = `(summary || ' ' || description) ILIKE '%lsass%'`;
    expect(await total('analyst', query)).toBe(await realCount(where));
    await ctx.database.db.execute(
      sql`UPDATE incidents SET summary = summary || ' (LSASS access)'
           WHERE key = (SELECT key FROM incidents WHERE NOT ((summary || ' ' || description) ILIKE '%lsass%') ORDER BY key LIMIT 1)`,
    );
    expect(await total('analyst', query)).toBe(await realCount(where));
    await ctx.database.db.execute(
      sql`UPDATE incidents SET summary = 'Closed out', description = ''
           WHERE key IN (SELECT key FROM incidents WHERE (summary || ' ' || description) ILIKE '%lsass%' ORDER BY key LIMIT 2)`,
    );
    expect(await total('analyst', query)).toBe(await realCount(where));
  });

  it('follows a removed incident, which writes no event', async () => {
    const query = `search=host&status__in=${INCIDENT_STATUSES.join(',')}`;
    const where = `(summary || ' ' || description) ILIKE '%host%'`;
    const before = await total('analyst', query);
    expect(before).toBe(await realCount(where));
    expect(before).toBeGreaterThan(0);
    await ctx.database.db.execute(
      sql`DELETE FROM incidents
           WHERE key = (SELECT key FROM incidents WHERE (summary || ' ' || description) ILIKE '%host%' ORDER BY key LIMIT 1)`,
    );
    expect(await total('analyst', query)).toBe(before - 1);
  });
});
