import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentsRepository } from '../../modules/incidents/index.ts';
import { buildIncident, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import type { Db } from '../client.ts';
import { queryRows } from '../client.ts';
import { checkDerived, rebuildDerived } from './check.ts';
import { INCIDENT_SEARCH_TRIGGER, triggerSwitch } from './index.ts';

let ctx: TestContext;
let db: Db;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  db = ctx.database.db;
});
afterAll(() => ctx.close());

/** The row that `incident_search` holds for an incident, or undefined. */
const stored = async (incidentId: string) =>
  (
    await queryRows<{ system_id: number; text: string }>(
      db,
      sql`SELECT system_id, text FROM incident_search WHERE incident_id = ${incidentId}`,
    )
  )[0];

const searchDifferences = async () =>
  (await checkDerived(db)).differences.filter((d) => d.table === 'incident_search');

describe('incident_search (the text a search matches, by system)', () => {
  it('follows an incident through insert, edit, move to another system and delete', async () => {
    const [a, b] = [await buildSystem(ctx), await buildSystem(ctx)];
    const incident = await buildIncident(ctx, a.id, { summary: 'Beacon to C2', description: 'Host WEB-02' });
    expect(await stored(incident.id)).toEqual({ system_id: a.id, text: 'beacon to c2 host web-02' });

    await db.execute(sql`UPDATE incidents SET description = 'Host DC01' WHERE id = ${incident.id}`);
    expect(await stored(incident.id)).toEqual({ system_id: a.id, text: 'beacon to c2 host dc01' });
    // a change of other columns leaves the row alone
    await db.execute(sql`UPDATE incidents SET priority = 'high' WHERE id = ${incident.id}`);
    expect(await stored(incident.id)).toEqual({ system_id: a.id, text: 'beacon to c2 host dc01' });

    await db.execute(sql`UPDATE incidents SET system_id = ${b.id} WHERE id = ${incident.id}`);
    expect(await stored(incident.id)).toEqual({ system_id: b.id, text: 'beacon to c2 host dc01' });
    const [{ n }] = (await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM incident_search WHERE incident_id = ${incident.id}`,
    )) as [{ n: number }];
    expect(n).toBe(1);

    await db.execute(sql`DELETE FROM incidents WHERE id = ${incident.id}`);
    expect(await stored(incident.id)).toBeUndefined();
    expect(await searchDifferences()).toEqual([]);
  });

  it('gives the totals of a search, exact below the cap and limited to the caller systems', async () => {
    const [mine, other] = [await buildSystem(ctx), await buildSystem(ctx)];
    for (let i = 0; i < 3; i++) await buildIncident(ctx, mine.id, { description: `Host jump-0${i}` });
    await buildIncident(ctx, mine.id, { description: 'Host JUMP-99 (upper case)' });
    await buildIncident(ctx, other.id, { description: 'Host jump-01' });
    await buildIncident(ctx, mine.id, { description: 'Nothing to see' });
    const repo = createIncidentsRepository(db);
    expect(await repo.count({ search: 'jump-' }, [mine.id])).toEqual({ total: 4, exact: true });
    expect(await repo.count({ search: 'JUMP-0' }, [mine.id, other.id])).toEqual({ total: 4, exact: true });
    expect(await repo.count({ search: 'jump-01' }, [mine.id])).toEqual({ total: 1, exact: true });
    expect(await repo.count({ search: 'jump-', system__in: [other.id] }, [mine.id])).toEqual({
      total: 0,
      exact: true,
    });
    expect(await repo.count({ search: '50%' }, [mine.id])).toEqual({ total: 0, exact: true });
  });

  it('derived check finds a row changed behind the trigger and an incident it missed; rebuild repairs', async () => {
    const system = await buildSystem(ctx);
    const seen = await buildIncident(ctx, system.id, { description: 'seen' });
    await db.execute(sql`UPDATE incident_search SET text = 'tampered' WHERE incident_id = ${seen.id}`);
    await db.execute(sql.raw(triggerSwitch(INCIDENT_SEARCH_TRIGGER, false)));
    const unseen = await buildIncident(ctx, system.id, { description: 'unseen' });
    await db.execute(sql.raw(triggerSwitch(INCIDENT_SEARCH_TRIGGER, true)));

    const differences = await searchDifferences();
    expect(differences).toHaveLength(2);
    const byIncident = (id: string) => differences.find((d) => d.key.includes(id));
    expect(byIncident(seen.id)).toMatchObject({ stored: 'tampered' });
    expect(byIncident(seen.id)?.recounted).toMatch(/seen$/);
    expect(byIncident(unseen.id)).toMatchObject({ stored: null });
    expect(byIncident(unseen.id)?.recounted).toMatch(/unseen$/);

    await rebuildDerived(db);
    expect(await searchDifferences()).toEqual([]);
    expect((await stored(unseen.id))?.text).toMatch(/unseen$/);
  });
});
