import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { openDatabase, queryRows } from '../db/client.ts';
import { generateDemoData } from './generator.ts';

const now = new Date('2026-11-20T12:00:00Z');
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite' });
  await database.migrate();
  await generateDemoData(database.db, { incidents: 300, now });
}, 120_000);
afterAll(() => database.close());

describe('demo inventory', () => {
  it('gives every incident a snapshot of the host it names, in the incident’s system', async () => {
    const [row] = await queryRows<{ incidents: number; named: number; foreign: number }>(
      database.db,
      sql`SELECT count(*)::int AS incidents,
                 count(*) FILTER (WHERE EXISTS (SELECT 1 FROM incident_snapshots s
                   WHERE s.incident_id = i.id AND s.name = i.affected_systems[1]))::int AS named,
                 (SELECT count(*)::int FROM incident_snapshots s JOIN incidents j ON j.id = s.incident_id
                   WHERE s.system_id <> j.system_id) AS foreign
            FROM incidents i`,
    );
    expect(row!.incidents).toBe(300);
    expect(row!.named).toBe(300);
    expect(row!.foreign).toBe(0);
  });

  it('keeps snapshot cmdb ids pointing at assets of the same system', async () => {
    const [row] = await queryRows<{ orphans: number; total: number }>(
      database.db,
      sql`SELECT count(*) FILTER (WHERE a.id IS NULL OR a.system_id <> s.system_id)::int AS orphans,
                 count(*)::int AS total
            FROM incident_snapshots s LEFT JOIN cmdb_assets a ON a.cmdb_id = s.cmdb_id`,
    );
    expect(row!.total).toBeGreaterThan(300);
    expect(row!.orphans).toBe(0);
  });

  it('counts events only up to each source’s last event, and none for the future', async () => {
    const rows = await queryRows<{ enabled: boolean; late: boolean; future: boolean; n: number }>(
      database.db,
      sql`SELECT l.enabled, coalesce(max(b.bucket_start) > l.last_event_at, false) AS late,
                 coalesce(max(b.bucket_start) > ${now.toISOString()}::timestamptz, false) AS future,
                 count(b.*)::int AS n
            FROM log_sources l LEFT JOIN log_source_event_buckets b ON b.log_source_id = l.id
           GROUP BY l.id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(rows.some((r) => !r.enabled)).toBe(true);
    expect(rows.filter((r) => r.late || r.future)).toEqual([]);
    expect(rows.filter((r) => r.n > 0).length).toBeGreaterThan(rows.length / 2);
  });
});
