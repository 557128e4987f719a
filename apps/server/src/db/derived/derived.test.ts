import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config.ts';
import { CommandFailed, runAdminCommand } from '../../modules/admin/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import type { BuiltIncident, BuiltSystem } from '../../test/builders.ts';
import { buildAlert, buildIncident, buildSystem } from '../../test/builders.ts';
import type { Db } from '../client.ts';
import { queryRows } from '../client.ts';
import { applyDerived } from './apply.ts';
import { checkDerived, rebuildDerived } from './check.ts';
import { DERIVED_SQL, INCIDENT_COUNTS_TRIGGER, INCIDENT_DAILY_TRIGGER, triggerSwitch } from './index.ts';

let ctx: TestContext;
let db: Db;
/** A built system with three incidents, one of them closed, and two alerts in the first. */
let system: BuiltSystem;
let withAlerts: BuiltIncident;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  db = ctx.database.db;
  system = await buildSystem(ctx);
  withAlerts = await buildIncident(ctx, system.id, { priority: 'high' });
  await buildIncident(ctx, system.id, { status: 'closed' });
  await buildIncident(ctx, system.id, { created: new Date(Date.now() - 3 * 86_400_000) });
  for (let i = 0; i < 2; i++) await buildAlert(ctx, system.id, { incidentId: withAlerts.id });
});
afterAll(() => ctx.close());

/** The database's own functions and triggers (not those of extensions), as PostgreSQL prints them. */
async function catalog(): Promise<{ functions: Record<string, string>; triggers: Record<string, string> }> {
  const functions = await queryRows<{ name: string; def: string }>(
    db,
    sql`SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def FROM pg_proc p
         WHERE p.pronamespace = 'public'::regnamespace
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
  );
  const triggers = await queryRows<{ name: string; def: string }>(
    db,
    sql`SELECT tgname AS name, pg_get_triggerdef(oid) || ' ' || tgenabled::text AS def FROM pg_trigger WHERE NOT tgisinternal`,
  );
  return {
    functions: Object.fromEntries(functions.map((f) => [f.name, f.def])),
    triggers: Object.fromEntries(triggers.map((t) => [t.name, t.def])),
  };
}

const declared = (pattern: RegExp) =>
  DERIVED_SQL.flatMap((d) => d.statements.flatMap((s) => [...s.matchAll(pattern)].map((m) => m[1]!))).sort();

const alertVersions = () =>
  queryRows<{ version: string }>(db, sql`SELECT sum(version)::text AS version FROM incident_alert_counts`);
const epoch = async () =>
  (await queryRows<{ n: string }>(db, sql`SELECT n::text AS n FROM cache_epoch`))[0]!.n;

describe('the derived functions and triggers (db/derived)', () => {
  it('are every function and trigger of the migrated database, each declared once', async () => {
    const { functions, triggers } = await catalog();
    const fns = declared(/CREATE OR REPLACE FUNCTION (\w+)\(/g);
    const trs = declared(/CREATE TRIGGER (\w+) /g);
    expect(new Set(fns).size).toBe(fns.length);
    expect(new Set(trs).size).toBe(trs.length);
    expect(Object.keys(functions).sort()).toEqual(fns);
    expect(Object.keys(triggers).sort()).toEqual(trs);
  });

  it('declare the same state when applied again, twice, and only when something changed', async () => {
    const before = await catalog();
    // migrate() applied them already and nothing changed since
    expect(await applyDerived(db)).toBe(false);
    expect(await applyDerived(db, { force: true })).toBe(true);
    expect(await applyDerived(db, { force: true })).toBe(true);
    expect(await catalog()).toEqual(before);
    // a trigger dropped by hand comes back once the noted state is gone
    await db.execute(sql`DROP TRIGGER incidents_counts ON incidents`);
    await db.execute(sql`DELETE FROM derived_state`);
    expect(await applyDerived(db)).toBe(true);
    expect(await catalog()).toEqual(before);
  });

  it('can be applied by two instances at once', async () => {
    const before = await catalog();
    await Promise.all([applyDerived(db, { force: true }), applyDerived(db, { force: true })]);
    expect(await catalog()).toEqual(before);
  });
});

describe('derived check and rebuild', () => {
  const admin = (...argv: string[]) => runAdminCommand(argv, { db, config: testConfig() });

  it('finds nothing on a database whose triggers kept every table', async () => {
    const check = await checkDerived(db);
    expect(check.differences).toEqual([]);
    expect(Object.keys(check.counts)).toEqual(
      expect.arrayContaining([
        'incident_counts',
        'incident_daily',
        'incident_hourly',
        'eps_hourly',
        'incident_alert_counts',
        'system_alert_counts',
      ]),
    );
    expect(await admin('derived', 'check')).toMatch(/derived tables agree with their recount/);
  });

  it('finds rows changed behind the triggers and an incident they did not see; rebuild repairs both', async () => {
    const [target] = await queryRows<{ system_id: number; n: string }>(
      db,
      sql`SELECT system_id, n::text AS n FROM incident_counts WHERE dim = 'all' AND system_id = ${system.id}`,
    );
    expect(target!.n).toBe('3');
    await db.execute(
      sql`UPDATE incident_counts SET n = n + 1 WHERE dim = 'all' AND system_id = ${target!.system_id}`,
    );
    const [alertRow] = await queryRows<{ incident_id: string; n: string }>(
      db,
      sql`SELECT incident_id, n::text AS n FROM incident_alert_counts WHERE incident_id = ${withAlerts.id}`,
    );
    expect(alertRow!.n).toBe('2');
    await db.execute(
      sql`UPDATE incident_alert_counts SET n = n + 5 WHERE incident_id = ${alertRow!.incident_id}`,
    );
    // an incident inserted while the count triggers were off
    await db.execute(sql.raw(triggerSwitch(INCIDENT_COUNTS_TRIGGER, false)));
    await db.execute(sql.raw(triggerSwitch(INCIDENT_DAILY_TRIGGER, false)));
    await db.execute(sql`INSERT INTO incidents (system_id, summary, description, status, priority, issue_type_id, affected_systems)
      SELECT system_id, 'Unseen', '', 'closed', priority, issue_type_id, '{}' FROM incidents WHERE system_id = ${target!.system_id} LIMIT 1`);
    await db.execute(sql.raw(triggerSwitch(INCIDENT_COUNTS_TRIGGER, true)));
    await db.execute(sql.raw(triggerSwitch(INCIDENT_DAILY_TRIGGER, true)));

    const check = await checkDerived(db);
    // the stored total was raised by one, and the incident the triggers missed adds one to the recount
    expect(check.differences).toContainEqual({
      table: 'incident_alert_counts',
      key: `incident_id=${alertRow!.incident_id}`,
      stored: String(Number(alertRow!.n) + 5),
      recounted: alertRow!.n,
    });
    const closed = check.differences.find(
      (d) => d.key === `system_id=${target!.system_id}, dim=status, value=closed`,
    );
    expect(Number(closed?.recounted)).toBe(Number(closed?.stored ?? 0) + 1);
    // so the two cancel out in the system's total
    expect(check.differences.map((d) => d.key)).not.toContain(
      `system_id=${target!.system_id}, dim=all, value=`,
    );
    expect(check.counts.incident_daily).toBeGreaterThan(0);
    expect(check.counts.incident_hourly).toBeGreaterThan(0);
    const failed = await admin('derived', 'check').then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(CommandFailed);
    expect((failed as CommandFailed).output).toContain(
      `incident_alert_counts\tincident_id=${alertRow!.incident_id}`,
    );

    const [versionBefore, epochBefore] = [(await alertVersions())[0]!.version, await epoch()];
    expect(await admin('derived', 'rebuild')).toMatch(/^Rebuilt\. \d+ derived tables agree/);
    expect((await checkDerived(db)).differences).toEqual([]);
    const [all] = await queryRows<{ n: string }>(
      db,
      sql`SELECT n::text AS n FROM incident_counts WHERE dim = 'all' AND system_id = ${target!.system_id}`,
    );
    expect(all!.n).toBe(String(Number(target!.n) + 1));
    // cached pages that showed the wrong counts are stale now
    expect(BigInt((await alertVersions())[0]!.version)).toBeGreaterThan(BigInt(versionBefore));
    expect(BigInt(await epoch())).toBeGreaterThan(BigInt(epochBefore));
  });

  it('finds event hours and alert counts of a system changed behind the triggers', async () => {
    await db.execute(sql`UPDATE eps_hourly SET events = events + 7
      WHERE (system_id, bucket_start) = (SELECT system_id, bucket_start FROM eps_hourly ORDER BY 1, 2 LIMIT 1)`);
    await db.execute(sql`DELETE FROM system_alert_counts WHERE system_id = ${system.id}`);
    const check = await checkDerived(db);
    expect(check.counts.eps_hourly).toBe(1);
    expect(check.counts.system_alert_counts).toBe(1);
    expect(check.differences.find((d) => d.table === 'system_alert_counts')?.stored).toBeNull();
    await rebuildDerived(db);
    expect((await checkDerived(db)).differences).toEqual([]);
  });

  it('lists what the triggers of stored files missed', async () => {
    const [file] = await queryRows<{ id: string }>(
      db,
      sql`INSERT INTO attachments (incident_id, filename, content_type, size, storage_key, sha256)
          SELECT id, 'a.txt', 'text/plain', 1, 'k', '' FROM incidents ORDER BY key LIMIT 1 RETURNING id`,
    );
    if (!file) throw new Error('no incident to attach a file to');
    await db.execute(sql`ALTER TABLE attachments DISABLE TRIGGER attachments_system`);
    await db.execute(sql`UPDATE attachments SET system_id = NULL WHERE id = ${file.id}`);
    await db.execute(sql`ALTER TABLE attachments ENABLE TRIGGER attachments_system`);
    expect((await checkDerived(db)).differences).toEqual([
      expect.objectContaining({ table: 'attachments', key: `id=${file.id}`, stored: null }),
    ]);
    await rebuildDerived(db);
    expect((await checkDerived(db)).differences).toEqual([]);
  });
});
