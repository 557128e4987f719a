import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { openDatabase, queryRows } from '../db/client.ts';
import { topUpDemoAlerts } from './alerts.ts';
import { generateDemoData } from './generator.ts';

let database: Database | undefined;
afterAll(() => database?.close());

describe('topping up the alerts of a data set (issue 14: 10,000,000 alerts)', { timeout: 120_000 }, () => {
  it('adds alerts until the total, kept in the per-incident counts, with their tags', async () => {
    database = await openDatabase({ kind: 'pglite' });
    await database.migrate();
    const { db } = database;
    await generateDemoData(db, { incidents: 80, seed: 3, now: new Date('2026-11-20T12:00:00Z') });
    const counts = async () =>
      (
        await queryRows<{ alerts: number; counted: number; tagged: number }>(
          db,
          sql`SELECT (SELECT count(*)::int FROM alerts) AS alerts,
                     (SELECT coalesce(sum(n), 0)::int FROM incident_alert_counts) AS counted,
                     (SELECT count(DISTINCT alert_id)::int FROM alert_tags) AS tagged`,
        )
      )[0]!;
    const start = await counts();
    // not a multiple of the number of incidents: some get one alert more than the others
    const target = start.alerts + 3 * 80 + 17;
    const result = await topUpDemoAlerts(db, target);
    expect(result).toEqual({ before: start.alerts, after: target });
    const end = await counts();
    expect(end.alerts).toBe(target);
    expect(end.counted).toBe(target);
    expect(end.tagged).toBeGreaterThan(start.tagged);
    // a second call has nothing left to do
    expect(await topUpDemoAlerts(db, target)).toEqual({ before: target, after: target });
  });
});
