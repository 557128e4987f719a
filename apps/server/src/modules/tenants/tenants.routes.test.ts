import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemCard, SystemListResponse, SystemPeopleResponse } from '@soc/contracts';
import { systems } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(tokens[user]!) });
const list = async (user: string, query = '') => {
  const res = await get(user, `/systems/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SystemListResponse>();
};

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  for (const user of ['alice', 'bob', 'analyst']) tokens[user] = (await ctx.login(user)).access;
});
afterAll(async () => ctx?.close());

describe('GET /soc/systems/', () => {
  it('shows a customer only their own systems, with services and people', async () => {
    const page = await list('alice');
    expect(page.results.map((s) => s.is_id)).toEqual(['IS-0001']);
    const [system] = page.results;
    expect(system!.services.length).toBeGreaterThan(0);
    expect(system!.service_manager?.full_name).toBeTruthy();
    expect(system!.dedicated_analyst?.full_name).toBeTruthy();
  });

  it('shows analysts every system and keeps the pickers’ short call working', async () => {
    const all = await list('analyst', '?no_page=true&short=true&page_size=30&search=');
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect(all.next).toBeNull();
    const suggest = await list('analyst', '?page_size=7&search=is-0002');
    expect(suggest.results.map((s) => s.is_id)).toEqual(['IS-0002']);
  });

  it('filters by id and name text and by the two people columns', async () => {
    expect((await list('analyst', '?is_id__icontains=0003')).results.map((s) => s.is_id)).toEqual([
      'IS-0003',
    ]);
    const [first] = (await list('analyst', '?is_id__icontains=0001')).results;
    const byName = await list(
      'analyst',
      `?full_name__icontains=${encodeURIComponent(first!.full_name.slice(2, 8))}`,
    );
    expect(byName.results.map((s) => s.id)).toContain(first!.id);
    const managerId = first!.service_manager!.id;
    const byManager = await list('analyst', `?service_manager__in=${managerId}`);
    expect(byManager.total).toBeGreaterThan(0);
    expect(byManager.results.every((s) => s.service_manager?.id === managerId)).toBe(true);
    const analystId = first!.dedicated_analyst!.id;
    const byAnalyst = await list('analyst', `?dedicated_analyst__in=${analystId}`);
    expect(byAnalyst.results.every((s) => s.dedicated_analyst?.id === analystId)).toBe(true);
    // a customer's filter never reaches beyond their systems
    expect((await list('alice', '?is_id__icontains=0002')).total).toBe(0);
  });

  it('sorts by id, name and the two people columns in both directions', async () => {
    const ids = (await list('analyst', '?ordering=-is_id')).results.map((s) => s.is_id);
    expect(ids).toEqual([...ids].sort().reverse());
    const names = (await list('analyst', '?ordering=full_name')).results.map((s) => s.full_name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const column of ['service_manager', 'dedicated_analyst'] as const) {
      const asc = (await list('analyst', `?ordering=${column}`)).results.map(
        (s) => s[column]?.full_name ?? '',
      );
      const desc = (await list('analyst', `?ordering=-${column}`)).results.map(
        (s) => s[column]?.full_name ?? '',
      );
      expect(asc[0]! <= asc[asc.length - 1]!).toBe(true);
      expect(desc[0]! >= desc[desc.length - 1]!).toBe(true);
    }
  });

  it('refuses unknown filters and orderings', async () => {
    expect((await get('analyst', '/systems/?ordering=status')).statusCode).toBe(400);
    expect((await get('analyst', '/systems/?colour=red')).statusCode).toBe(400);
  });

  it('lists the people of the filters from the caller’s systems', async () => {
    const res = await get('alice', '/systems/people/?role=service_manager');
    expect(res.statusCode).toBe(200);
    const [own] = (await list('alice')).results;
    expect(res.json<SystemPeopleResponse>().results.map((p) => p.id)).toEqual([own!.service_manager!.id]);
  });
});

describe('GET /soc/systems/{id}/', () => {
  it('answers the card with services, contracts, SLA, people and contacts', async () => {
    const [own] = (await list('alice')).results;
    const res = await get('alice', `/systems/${own!.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json<SystemCard>();
    expect(card.is_id).toBe('IS-0001');
    expect(card.services.length).toBeGreaterThan(0);
    const service = card.services[0]!;
    expect(service.sla.map((r) => r.category)).toEqual(
      ['critical', 'high', 'medium', 'low'].filter((c) => service.sla.some((r) => r.category === c)),
    );
    expect(card.services.some((s) => s.contract?.number)).toBe(true);
    expect(card.customer_contacts.length).toBeGreaterThan(0);
    expect(card.service_manager?.id).toBe(own!.service_manager!.id);
  });

  it('answers 404 for another tenant’s system and for a missing one', async () => {
    const [other] = await ctx.database.db.select().from(systems).where(eq(systems.isId, 'IS-0002'));
    expect((await get('alice', `/systems/${other!.id}/`)).statusCode).toBe(404);
    expect((await get('bob', `/systems/${other!.id}/`)).statusCode).toBe(200);
    expect((await get('analyst', '/systems/999999/')).statusCode).toBe(404);
  });
});
