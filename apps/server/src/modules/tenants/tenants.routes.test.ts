import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemCard, SystemListResponse, SystemPeopleResponse } from '@soc/contracts';
import type { BuiltSystem } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildContact,
  buildContract,
  buildCustomer,
  buildService,
  buildSystem,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** The customer's system, another tenant's, and a third one only the staff see. */
let own: BuiltSystem;
let other: BuiltSystem;
let third: BuiltSystem;
let contractNumber: string;
const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(tokens[user]!) });
const list = async (user: string, query = '') => {
  const res = await get(user, `/systems/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SystemListResponse>();
};

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const staff = async (firstName: string, lastName: string) =>
    (await buildAnalyst(ctx, { firstName, lastName })).id;
  const [managerA, managerB] = [await staff('Mila', 'Manager'), await staff('Boris', 'Manager')];
  const [analystA, analystB] = [await staff('Anna', 'Analyst'), await staff('Yuri', 'Analyst')];
  own = await buildSystem(ctx, { serviceManagerId: managerA, dedicatedAnalystId: analystA });
  other = await buildSystem(ctx, { serviceManagerId: managerB, dedicatedAnalystId: analystB });
  third = await buildSystem(ctx, { serviceManagerId: managerA, dedicatedAnalystId: analystB });
  const contract = await buildContract(ctx, own.id);
  contractNumber = contract.number;
  await buildService(ctx, own.id, {
    name: 'Focus',
    contractId: contract.id,
    sla: { low: 24, critical: 1, high: 4 },
  });
  await buildService(ctx, own.id, { name: 'Vision' });
  await buildContact(ctx, own.id);
  await buildService(ctx, other.id, { name: 'Horizon' });
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  tokens.otherTenant = await (await buildCustomer(ctx, [other.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
});
afterAll(async () => ctx?.close());

describe('GET /soc/systems/', () => {
  it('shows a customer only their own systems, with services and people', async () => {
    const page = await list('customer');
    expect(page.results.map((s) => s.is_id)).toEqual([own.isId]);
    const [system] = page.results;
    expect([...system!.services].sort()).toEqual(['Focus', 'Vision']);
    expect(system!.service_manager?.full_name).toBeTruthy();
    expect(system!.dedicated_analyst?.full_name).toBeTruthy();
  });

  it('shows analysts every system and keeps the pickers’ short call working', async () => {
    const all = await list('analyst', '?no_page=true&short=true&page_size=30&search=');
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.results.map((s) => s.is_id)).toEqual(
      expect.arrayContaining([own.isId, other.isId, third.isId]),
    );
    expect(all.next).toBeNull();
    const suggest = await list('analyst', `?page_size=7&search=${other.isId.toLowerCase()}`);
    expect(suggest.results.map((s) => s.is_id)).toEqual([other.isId]);
  });

  it('filters by id and name text and by the two people columns', async () => {
    // the random part of the ids, without their common prefix
    const part = (system: BuiltSystem) => system.isId.slice(4);
    expect((await list('analyst', `?is_id__icontains=${part(third)}`)).results.map((s) => s.is_id)).toEqual([
      third.isId,
    ]);
    const [first] = (await list('analyst', `?is_id__icontains=${part(own)}`)).results;
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
    expect((await list('customer', `?is_id__icontains=${part(other)}`)).total).toBe(0);
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
    const res = await get('customer', '/systems/people/?role=service_manager');
    expect(res.statusCode).toBe(200);
    const [listed] = (await list('customer')).results;
    expect(res.json<SystemPeopleResponse>().results.map((p) => p.id)).toEqual([listed!.service_manager!.id]);
  });
});

describe('GET /soc/systems/{id}/', () => {
  it('answers the card with services, contracts, SLA, people and contacts', async () => {
    const [listed] = (await list('customer')).results;
    const res = await get('customer', `/systems/${listed!.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json<SystemCard>();
    expect(card.is_id).toBe(own.isId);
    expect(card.services.map((s) => s.name).sort()).toEqual(['Focus', 'Vision']);
    const service = card.services.find((s) => s.name === 'Focus')!;
    expect(service.sla.map((r) => r.category)).toEqual(['critical', 'high', 'low']);
    expect(service.sla.map((r) => r.category)).toEqual(
      ['critical', 'high', 'medium', 'low'].filter((c) => service.sla.some((r) => r.category === c)),
    );
    expect(service.contract?.number).toBe(contractNumber);
    expect(card.customer_contacts).toHaveLength(1);
    expect(card.service_manager?.id).toBe(listed!.service_manager!.id);
  });

  it('answers 404 for another tenant’s system and for a missing one', async () => {
    expect((await get('customer', `/systems/${other.id}/`)).statusCode).toBe(404);
    expect((await get('otherTenant', `/systems/${other.id}/`)).statusCode).toBe(200);
    expect((await get('analyst', '/systems/999999/')).statusCode).toBe(404);
  });
});
