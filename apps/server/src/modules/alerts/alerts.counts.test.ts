import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { alerts } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};

/** The total of the alerts page as `user` sees it. */
async function total(user: string, query = ''): Promise<number> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/alerts/?page_size=1${query}`,
    headers: bearer(tokens[user]!),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ total: number }>().total;
}

/** The same count over the alerts themselves. */
async function realCount(user: string, systemIds?: number[]): Promise<number> {
  const conditions = [sql`TRUE`];
  if (user !== 'analyst') {
    conditions.push(
      sql`a.system_id IN (SELECT us.system_id FROM user_systems us JOIN users u ON u.id = us.user_id WHERE u.username = ${user})`,
    );
  }
  if (systemIds)
    conditions.push(
      sql`a.system_id IN (${sql.join(
        systemIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`SELECT count(*)::int AS n FROM alerts a WHERE ${sql.join(conditions, sql` AND `)}`,
  );
  return row!.n;
}

async function systemIds(): Promise<number[]> {
  return (await queryRows<{ id: number }>(ctx.database.db, sql`SELECT id FROM systems ORDER BY id`)).map(
    (r) => r.id,
  );
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 60 });
  for (const user of ['alice', 'carol', 'analyst']) tokens[user] = (await ctx.login(user)).access;
});
afterAll(() => ctx.close());

describe('GET /soc/alerts/ total from the per-system count table', () => {
  it('equals a count over the alerts for every caller, with and without a system filter', async () => {
    const [first, second] = await systemIds();
    expect(await realCount('analyst')).toBeGreaterThan(0);
    for (const user of ['alice', 'carol', 'analyst']) {
      expect(await total(user)).toBe(await realCount(user));
      expect(await total(user, `&system__in=${first},${second}`)).toBe(
        await realCount(user, [first!, second!]),
      );
    }
  });

  it('stays exact after alerts are moved between systems, deleted and added', async () => {
    const [first, second] = await systemIds();
    const db = ctx.database.db;
    await db.execute(
      sql`UPDATE alerts SET system_id = ${second} WHERE id IN (SELECT id FROM alerts WHERE system_id = ${first} ORDER BY id LIMIT 3)`,
    );
    await db.execute(sql`DELETE FROM alerts WHERE id IN (SELECT id FROM alerts ORDER BY id DESC LIMIT 2)`);
    // a copy of one alert under a new id, as the analyst API would add one
    const [source] = await db.select().from(alerts).where(eq(alerts.systemId, first!)).limit(1);
    const { id: _id, severityRank: _rank, ...copy } = source!;
    await db.insert(alerts).values(copy);
    for (const user of ['alice', 'carol', 'analyst']) expect(await total(user)).toBe(await realCount(user));
    const [row] = await queryRows<{ n: number; real: number }>(
      db,
      sql`SELECT (SELECT n FROM system_alert_counts WHERE system_id = ${first})::int AS n,
                 (SELECT count(*) FROM alerts WHERE system_id = ${first})::int AS real`,
    );
    expect(row!.n).toBe(row!.real);
  });

  it('still counts the rows when any other filter is set', async () => {
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS n FROM alerts WHERE severity = 'High'`,
    );
    expect(await total('analyst', '&severity__in=High')).toBe(row!.n);
  });
});
