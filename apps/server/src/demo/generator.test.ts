import { afterEach, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { openDatabase, queryRows } from '../db/client.ts';
import { incidents } from '../db/schema/index.ts';
import { createIncidentsRepository, incidentConditions } from '../modules/incidents/incidents.repository.ts';
import { generateDemoData } from './generator.ts';

const opened: Database[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

async function fresh(): Promise<Database> {
  const database = await openDatabase({ kind: 'pglite' });
  opened.push(database);
  await database.migrate();
  return database;
}

const now = new Date('2026-11-20T12:00:00Z');

// each test generates whole demo data sets (incidents, inventory, alerts, rules, reports) on PGlite
describe('demo data generator', { timeout: 120_000 }, () => {
  it('gives the same incidents for the same seed', async () => {
    const a = await fresh();
    const b = await fresh();
    await generateDemoData(a.db, { incidents: 60, seed: 7, now });
    await generateDemoData(b.db, { incidents: 60, seed: 7, now });
    const pick = (d: Database) =>
      d.db
        .select({
          id: incidents.id,
          key: incidents.key,
          summary: incidents.summary,
          status: incidents.status,
          created: incidents.created,
        })
        .from(incidents)
        .orderBy(asc(incidents.key));
    expect(await pick(a)).toEqual(await pick(b));
  });

  it('creates the accounts the other issues rely on and spreads incidents over the period', async () => {
    const d = await fresh();
    const summary = await generateDemoData(d.db, { incidents: 200, now });
    expect(summary.users).toBeGreaterThanOrEqual(20);
    expect(summary.systems).toBeGreaterThanOrEqual(5);
    const memberships = await queryRows<{ username: string; n: number; mfa: string | null; role: string }>(
      d.db,
      sql`SELECT u.username, count(us.system_id)::int AS n, u.mfa_phone AS mfa, u.role
            FROM users u LEFT JOIN user_systems us ON us.user_id = u.id
           WHERE u.username IN ('alice', 'bob', 'carol', 'dave', 'analyst') GROUP BY u.id`,
    );
    const by = Object.fromEntries(memberships.map((m) => [m.username, m]));
    expect(by.carol?.n).toBe(2);
    expect(by.dave?.mfa).toBeTruthy();
    expect(by.analyst?.role).toBe('analyst');
    const [range] = await queryRows<{ first: Date; last: Date; systems: number; breached: number }>(
      d.db,
      sql`SELECT min(created) AS first, max(created) AS last, count(DISTINCT system_id)::int AS systems,
                 count(*) FILTER (WHERE sla_breached)::int AS breached FROM incidents`,
    );
    expect(new Date(range!.first).getTime()).toBeLessThan(now.getTime() - 170 * 86_400_000);
    expect(new Date(range!.last).getTime()).toBeLessThanOrEqual(now.getTime());
    expect(range!.systems).toBe(5);
    expect(range!.breached).toBeGreaterThan(0);
  });

  it('rebuilds every index after a bulk load', async () => {
    const d = await fresh();
    const indexes = () =>
      queryRows<{ name: string }>(
        d.db,
        sql`SELECT indexname AS name FROM pg_indexes
             WHERE tablename IN ('incidents', 'comments', 'incident_search_terms') ORDER BY 1`,
      );
    const before = await indexes();
    await generateDemoData(d.db, { incidents: 30, now, bulkThreshold: 10 });
    expect(await indexes()).toEqual(before);
    expect(before.length).toBeGreaterThan(20);
    // the text filters' vocabulary was built once for the load: totals from it equal a row count
    const repo = createIncidentsRepository(d.db);
    const [row] = await queryRows<{ host: string; word: string }>(
      d.db,
      sql`SELECT affected_systems[1] AS host, split_part(summary, ' ', 1) AS word FROM incidents
           WHERE cardinality(affected_systems) > 0 LIMIT 1`,
    );
    for (const filters of [
      { search: row!.word },
      { host__icontains: row!.host },
      { summary__icontains: row!.word },
    ]) {
      const [real] = await queryRows<{ n: number }>(
        d.db,
        sql`SELECT count(*)::int AS n FROM incidents i WHERE ${incidentConditions(filters, null)}`,
      );
      expect(real!.n, JSON.stringify(filters)).toBeGreaterThan(0);
      expect((await repo.count(filters, null)).total, JSON.stringify(filters)).toBe(real!.n);
    }
    const [terms] = await queryRows<{ n: number }>(
      d.db,
      sql`SELECT count(*)::int AS n FROM incident_search_terms`,
    );
    expect(terms!.n).toBeGreaterThan(0);
  });

  it('continues incident keys after the generated ones', async () => {
    const d = await fresh();
    await generateDemoData(d.db, { incidents: 10, now });
    const [row] = await queryRows<{ next: number }>(
      d.db,
      sql`SELECT nextval(pg_get_serial_sequence('incidents', 'key'))::int AS next`,
    );
    expect(row!.next).toBe(10_010);
  });
});
