import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentFilters } from '@soc/contracts';
import { TOTAL_COUNT_CAP } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import { buildCustomer, buildSystem, buildVariedIncidents } from '../../test/builders.ts';
import type { IncidentsRepository, SystemScope } from './incidents.repository.ts';
import { countKey } from './incident-totals.repository.ts';
import { createIncidentsRepository } from './incidents.repository.ts';

let ctx: TestContext;
let repo: IncidentsRepository;
let systems: number[];
let sample: { technique: string; rule: string; tag: string; category: number; assignee: number };

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  repo = createIncidentsRepository(ctx.database.db);
  systems = [];
  for (let s = 0; s < 4; s++) systems.push((await buildSystem(ctx)).id);
  const assignee = await buildCustomer(ctx, systems);
  await buildVariedIncidents(
    ctx,
    systems.map((id, s) => ({ id, count: [40, 30, 20, 30][s]!, assigneeId: assignee.id })),
  );
  const [row] = await queryRows<typeof sample>(
    ctx.database.db,
    sql`SELECT (SELECT techniques[1] FROM incidents WHERE cardinality(techniques) > 1 LIMIT 1) AS technique,
               (SELECT detection_rules[1] FROM incidents WHERE cardinality(detection_rules) > 0 LIMIT 1) AS rule,
               (SELECT tags[1] FROM incidents WHERE cardinality(tags) > 0 LIMIT 1) AS tag,
               (SELECT secondary_category_ids[1] FROM incidents WHERE cardinality(secondary_category_ids) > 0 LIMIT 1) AS category,
               (SELECT customer_assignee_id FROM incidents WHERE customer_assignee_id IS NOT NULL LIMIT 1) AS assignee`,
  );
  sample = row!;
});
afterAll(() => ctx.close());

/** Filter sets the count table answers, and some it must leave to a real count. */
function filterSets(): IncidentFilters[] {
  return [
    {},
    { system__in: [systems[0]!, systems[2]!] },
    { status__in: ['waiting_for_customer', 'closed'] },
    { priority__in: ['critical'] },
    { priority__in: ['high'], system__in: [systems[1]!] },
    { issuetype__in: [1, 2] },
    { category__in: [sample.category] },
    { category__in: [sample.category, 1] },
    { technique__in: [sample.technique] },
    { rule__in: [sample.rule] },
    { tags__in: [sample.tag] },
    { tactic__in: ['credential-access'] },
    { sla_breached: true },
    { sla_breached: false },
    { gossopka_id__isnull: false },
    { gossopka_id__isnull: true },
    { customer_assignee__isnull: true },
    { customer_assignee__isnull: false },
    { customer_assignee__in: [sample.assignee] },
    { resolution__in: ['TP'] },
    { service__in: ['Vision', 'Focus'] },
    { status__in: ['closed'], priority__in: ['low'] },
    { search: 'host' },
  ];
}

async function expectCountsExact(scopes: SystemScope[]) {
  for (const scope of scopes) {
    for (const filters of filterSets()) {
      const label = JSON.stringify({ filters, scope });
      const n = await repo.countRows(filters, scope);
      expect(n, label).toBeLessThanOrEqual(TOTAL_COUNT_CAP);
      const real = { total: n, exact: true };
      expect(await repo.count(filters, scope), label).toEqual(real);
      // the list's total, read with its page (one statement) or beside it, and past the last page
      const first = await repo.pageAndTotal(filters, scope, '-created', 5, 0, 'en');
      expect({ total: first.total, exact: first.exact }, label).toEqual(real);
      expect(first.rows.length, label).toBe(Math.min(5, real.total));
      const beyond = await repo.pageAndTotal(filters, scope, 'priority', 5, real.total + 3, 'ru');
      expect(beyond, label).toEqual({ ...real, rows: [] });
    }
  }
}

describe('incident totals from the count table', () => {
  it('answers one filter (or none) from the table and leaves the rest to a real count', () => {
    expect(countKey({})?.dim).toBe('all');
    expect(countKey({ system__in: [1] })?.dim).toBe('all');
    expect(countKey({ status__in: ['closed', 'completed'] })?.dim).toBe('status');
    expect(countKey({ technique__in: ['T1110'] })?.dim).toBe('technique');
    // an incident may have both techniques: a sum would count it twice
    expect(countKey({ technique__in: ['T1110', 'T1059'] })).toBeNull();
    expect(countKey({ status__in: ['closed'], priority__in: ['low'] })).toBeNull();
    expect(countKey({ created__gte: 1 })).toBeNull();
    expect(countKey({ search: 'x' })).toBeNull();
  });

  it('equals a real count for every filter and scope after the incidents are built', async () => {
    await expectCountsExact([null, [systems[0]!], [systems[1]!, systems[3]!], []]);
  });

  it('stays exact through inserts, updates of every counted column and deletes', async () => {
    const db = ctx.database.db;
    await db.execute(sql`UPDATE incidents SET status = 'closed', resolution = 'TP' WHERE key % 7 = 0`);
    await db.execute(sql`UPDATE incidents SET priority = 'critical', tags = array_append(tags, 'moved')
                          WHERE key % 11 = 0`);
    await db.execute(sql`UPDATE incidents SET system_id = ${systems[1]!}, techniques = '{}', tactics = '{}'
                          WHERE key % 13 = 0 AND system_id <> ${systems[1]!}`);
    await db.execute(sql`UPDATE incidents SET customer_assignee_id = NULL, gossopka_id = 'G-1',
                          secondary_category_ids = ARRAY[category_id] WHERE key % 5 = 0`);
    await db.execute(sql`UPDATE incidents SET sla_breached = NOT sla_breached, detection_rules = '{}'
                          WHERE key % 3 = 0`);
    await db.execute(sql`UPDATE incidents SET summary = summary || ' (edited)' WHERE key % 2 = 0`);
    await db.execute(sql`INSERT INTO incidents (system_id, issue_type_id, category_id, summary, priority, techniques, tags)
                          SELECT system_id, issue_type_id, category_id, summary || ' copy', priority, techniques, tags
                            FROM incidents WHERE key % 4 = 1`);
    await db.execute(sql`DELETE FROM incidents WHERE key % 17 = 0`);
    await expectCountsExact([null, [systems[0]!], [systems[1]!, systems[3]!]]);
  });
});
