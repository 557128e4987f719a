import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import { demoLoginsToShow } from './demo-start.ts';
import { DEMO_USERNAMES } from './generator.ts';

/*
 * Issue 38, item 7: the start banner's "Demo logins" printed even with DEMO_DATA=false. It lists
 * the demo accounts only when the demo data set is enabled and its accounts exist.
 */

let ctx: TestContext;

beforeAll(async () => {
  // the empty template holds the demo accounts (no incidents)
  ctx = await createTestContext({ incidents: 0 });
}, 120_000);
afterAll(() => ctx?.close());

describe('the demo logins of the start banner', () => {
  it('lists the demo accounts when the set is enabled and present', async () => {
    const logins = await demoLoginsToShow(ctx.database.db, { enabled: true });
    expect(logins.map((l) => l.username)).toEqual([...DEMO_USERNAMES]);
    expect(logins.every((l) => l.description.length > 0)).toBe(true);
  });

  it('lists what was just loaded, with its descriptions', async () => {
    const loaded = [{ username: 'alice', description: 'customer of Grid North' }];
    expect(await demoLoginsToShow(ctx.database.db, { enabled: true, loaded })).toEqual(loaded);
  });

  it('lists nothing with DEMO_DATA=false, even where the demo accounts exist', async () => {
    expect(await demoLoginsToShow(ctx.database.db, { enabled: false })).toEqual([]);
  });

  it('lists nothing where the demo accounts are not all there', async () => {
    await ctx.database.db.execute(sql`UPDATE users SET username = 'dave-renamed' WHERE username = 'dave'`);
    expect(await demoLoginsToShow(ctx.database.db, { enabled: true })).toEqual([]);
  });
});
