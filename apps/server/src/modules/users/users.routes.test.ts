import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserListItem } from '@soc/contracts';
import { systems } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
let alice: string;

const list = (query: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc/users/?${query}`, headers: bearer(alice) });

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  alice = (await ctx.login('alice')).access;
});
afterAll(() => ctx.close());

describe('GET /soc/users/ — assignee suggestions', () => {
  it('suggests active users of the caller’s systems only, with a trimmed search', async () => {
    const [aliceSystem] = await ctx.database.db.select().from(systems).where(eq(systems.isId, 'IS-0001'));
    const [bobSystem] = await ctx.database.db.select().from(systems).where(eq(systems.isId, 'IS-0002'));
    const res = await list(`page_size=10&is_active=true&system__in=${aliceSystem!.id}&search=%20car%20`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ results: UserListItem[]; total: number }>();
    expect(page.results.map((u) => u.username)).toEqual(['carol']);
    const foreign = await list(`system__in=${bobSystem!.id}&search=bob`);
    expect(foreign.json<{ total: number }>().total).toBe(0);
    const all = await list('page_size=200&is_active=true');
    const names = all.json<{ results: UserListItem[] }>().results.map((u) => u.username);
    expect(names).toContain('alice');
    expect(names).not.toContain('bob');
    expect(all.json<{ results: UserListItem[] }>().results.every((u) => u.is_active)).toBe(true);
  });

  it('is documented in the OpenAPI description', async () => {
    const doc = (await ctx.app.inject('/api/v0/docs/json')).json<{ paths: Record<string, object> }>();
    expect(doc.paths).toHaveProperty(['/api/v0/soc/users/']);
  });
});
