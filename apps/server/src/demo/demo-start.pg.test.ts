import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { openDatabase, queryRows } from '../db/client.ts';
import { loadDemoDataIfEmpty } from './demo-start.ts';
import { DEMO_USERNAMES } from './generator.ts';
import { adminStatement } from '../test/harness.ts';

/*
 * Issue 38, item 7: two instances started together with DEMO_DATA=true on an empty database; one
 * exited on a unique violation. The load takes an advisory lock: the second waits, then finds the
 * data loaded and loads nothing. Two loads at once on two pools (as two processes would).
 */

const name = `soc_demo_${process.pid}_${randomBytes(4).toString('hex')}`;
const databases: Database[] = [];

beforeAll(async () => {
  await adminStatement(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  for (let i = 0; i < 2; i++) {
    databases.push(await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 3 }));
  }
  // both migrate at once too, as two starting instances do
  await Promise.all(databases.map((d) => d.migrate()));
}, 180_000);

afterAll(async () => {
  for (const d of databases) await d.close();
  await adminStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('the demo load of two instances starting together', () => {
  it('loads once: both succeed, one of them loaded, the data exists once', async () => {
    const results = await Promise.all(databases.map((d) => loadDemoDataIfEmpty(d, { incidents: 5 })));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    const [row] = await queryRows<{ accounts: number; incidents: number; systems: number }>(
      databases[0]!.db,
      sql`SELECT (SELECT count(*)::int FROM users WHERE username IN (${sql.join(
        DEMO_USERNAMES.map((u) => sql`${u}`),
        sql`, `,
      )})) AS accounts,
                 (SELECT count(*)::int FROM incidents) AS incidents,
                 (SELECT count(*)::int FROM systems) AS systems`,
    );
    expect(row).toEqual({
      accounts: DEMO_USERNAMES.length,
      incidents: 5,
      systems: results.find(Boolean)!.systems,
    });
  }, 180_000);
});
