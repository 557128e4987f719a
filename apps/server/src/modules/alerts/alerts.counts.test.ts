import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { alerts } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem, BuiltUser } from '../../test/builders.ts';
import { buildAlert, buildAnalyst, buildCustomer, buildSystem } from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** Built systems: `two` sees the first two, `one` the third; `staff` is an analyst. */
let built: BuiltSystem[];
const CALLERS = ['two', 'one', 'staff'] as const;
type Caller = (typeof CALLERS)[number];
const users = {} as Record<Caller, BuiltUser>;

/** The total of the alerts page as `user` sees it. */
async function total(user: Caller, query = ''): Promise<number> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/alerts/?page_size=1${query}`,
    headers: bearer(tokens[user]!),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ total: number }>().total;
}

/** The same count over the alerts themselves. */
async function realCount(user: Caller, systemIds?: number[]): Promise<number> {
  const conditions = [sql`TRUE`];
  if (user !== 'staff') {
    conditions.push(
      sql`a.system_id IN (SELECT us.system_id FROM user_systems us JOIN users u ON u.id = us.user_id WHERE u.username = ${users[user].username})`,
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

const systemIds = async () => built.map((s) => s.id);

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  built = [await buildSystem(ctx), await buildSystem(ctx), await buildSystem(ctx)];
  const [a, b, c] = built.map((s) => s.id) as [number, number, number];
  users.two = await buildCustomer(ctx, [a, b]);
  users.one = await buildCustomer(ctx, [c]);
  users.staff = await buildAnalyst(ctx);
  // 5 + 3 + 4 alerts, 6 of them High
  const severities = ['High', 'Medium', 'High', 'Low', 'High'] as const;
  for (const [system, n] of [
    [a, 5],
    [b, 3],
    [c, 4],
  ] as const)
    for (let i = 0; i < n; i++) await buildAlert(ctx, system, { severity: severities[i] });
  for (const user of CALLERS) tokens[user] = await users[user].login();
});
afterAll(() => ctx.close());

describe('GET /soc/alerts/ total from the per-system count table', () => {
  it('equals a count over the alerts for every caller, with and without a system filter', async () => {
    const [first, second] = await systemIds();
    expect([await total('two'), await total('one'), await total('staff')]).toEqual([8, 4, 12]);
    expect(await total('two', `&system__in=${first},${second}`)).toBe(8);
    expect(await total('one', `&system__in=${first},${second}`)).toBe(0);
    for (const user of CALLERS) {
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
    const third = built[2]!.id;
    await db.execute(
      sql`DELETE FROM alerts WHERE id IN (SELECT id FROM alerts WHERE system_id = ${third} ORDER BY id LIMIT 2)`,
    );
    // a copy of one alert under a new id, as the analyst API would add one
    const [source] = await db.select().from(alerts).where(eq(alerts.systemId, first!)).limit(1);
    const { id: _id, severityRank: _rank, ...copy } = source!;
    await db.insert(alerts).values(copy);
    // first 5 - 3 + 1, second 3 + 3, third 4 - 2
    expect([await total('two'), await total('one'), await total('staff')]).toEqual([9, 2, 11]);
    for (const user of CALLERS) expect(await total(user)).toBe(await realCount(user));
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
    expect(row!.n).toBeGreaterThan(0);
    expect(await total('staff', '&severity__in=High')).toBe(row!.n);
  });
});
