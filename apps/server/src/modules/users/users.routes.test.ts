import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserListItem } from '@soc/contracts';
import type { BuiltSystem, BuiltUser } from '../../test/builders.ts';
import { buildCustomer, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
let access: string;
let own: BuiltSystem;
let other: BuiltSystem;
/** The caller, a colleague on the caller's system, an inactive one, and another tenant's user. */
let customer: BuiltUser;
let colleague: BuiltUser;
let inactive: BuiltUser;
let foreigner: BuiltUser;

const list = (query: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc/users/?${query}`, headers: bearer(access) });

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  customer = await buildCustomer(ctx, [own.id]);
  colleague = await buildCustomer(ctx, [own.id], { username: `colleague-${own.isId}` });
  inactive = await buildCustomer(ctx, [own.id], { username: `inactive-${own.isId}`, isActive: false });
  foreigner = await buildCustomer(ctx, [other.id], { username: `foreigner-${other.isId}` });
  access = await customer.login();
});
afterAll(() => ctx.close());

describe('GET /soc/users/ — assignee suggestions', () => {
  it('suggests active users of the caller’s systems only, with a trimmed search', async () => {
    const res = await list(`page_size=10&is_active=true&system__in=${own.id}&search=%20colleague%20`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ results: UserListItem[]; total: number }>();
    expect(page.results.map((u) => u.username)).toEqual([colleague.username]);
    const foreign = await list(`system__in=${other.id}&search=foreigner`);
    expect(foreign.json<{ total: number }>().total).toBe(0);
    const all = await list('page_size=200&is_active=true');
    const names = all.json<{ results: UserListItem[] }>().results.map((u) => u.username);
    expect(names).toEqual(expect.arrayContaining([customer.username, colleague.username]));
    expect(names).not.toContain(foreigner.username);
    expect(names).not.toContain(inactive.username);
    expect(all.json<{ results: UserListItem[] }>().results.every((u) => u.is_active)).toBe(true);
  });

  it('is documented in the OpenAPI description', async () => {
    const doc = (await ctx.app.inject('/api/v0/docs/json')).json<{ paths: Record<string, object> }>();
    expect(doc.paths).toHaveProperty(['/api/v0/soc/users/']);
  });
});
