import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';

/*
 * Every ordering the alert pages offer by default is served by an index in its order, so that a
 * page is an index range scan, not a sort of every alert (issue 31: the severity page sorted
 * 3.2 million alerts for 2.2 s). Sorting is turned off for the plan, so only an index can give
 * the order; the plan must then name the index.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 5 });
});
afterAll(() => ctx.close());

const planOf = (query: ReturnType<typeof sql>) =>
  ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await tx.execute(sql`SET LOCAL enable_sort = off`);
    const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN ${query}`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });

describe('the alert pages by severity', () => {
  it('of every system read alerts_severity_idx in its order', async () => {
    const plan = await planOf(
      sql`SELECT id FROM alerts ORDER BY severity_rank DESC, created_time DESC, id DESC LIMIT 40`,
    );
    expect(plan).toMatch(/Index (Only )?Scan( Backward)? using alerts_severity_idx/);
    expect(plan).not.toMatch(/Sort/);
  });

  it('of some systems read alerts_system_severity_idx', async () => {
    const plan = await planOf(
      sql`SELECT id FROM alerts WHERE system_id = 1
          ORDER BY severity_rank DESC, created_time DESC, id DESC LIMIT 40`,
    );
    expect(plan).toMatch(/Index (Only )?Scan( Backward)? using alerts_system_severity_idx/);
    expect(plan).not.toMatch(/Sort/);
  });
});
