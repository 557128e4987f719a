import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentListItem } from '@soc/contracts';
import type { TestContext } from './harness.ts';
import { bearer, createTestContext } from './harness.ts';
import { buildAnalyst, buildCustomer, buildSystem } from './builders.ts';
import {
  BUILT_SLA_HOURS,
  buildIncidents,
  buildLogSource,
  buildService,
  buildVariedIncidents,
  forgetBuiltEvents,
  issueTypeReference,
} from './builders-d.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx?.close());

describe('test builders (services, reference data, incidents in bulk)', () => {
  it('make incidents in order with the fields asked for, as the API lists them', async () => {
    const system = await buildSystem(ctx);
    const service = await buildService(ctx, system.id, { name: 'Built service' });
    const reference = await issueTypeReference(ctx);
    expect(reference.categories.length).toBeGreaterThan(2);
    expect(new Set(reference.resolutions.map((r) => r.kind))).toEqual(new Set(['TP', 'FP']));
    const built = await buildIncidents(ctx, system.id, 3, (i) => ({
      priority: i === 1 ? 'high' : 'low',
      serviceId: i === 2 ? service.id : null,
      categoryId: reference.categories[i]!.id,
    }));
    expect(built).toHaveLength(3);
    expect(built.map((b) => b.key)).toEqual([...built.map((b) => b.key)].sort((a, b) => a - b));

    const res = await ctx.app.inject({
      url: `/api/v0/soc/incs/?system__in=${system.id}&ordering=created`,
      headers: bearer(await (await buildAnalyst(ctx)).login()),
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json<{ results: IncidentListItem[] }>().results;
    const byKey = new Map(items.map((i) => [i.key, i]));
    expect(items.map((i) => i.key).sort((a, b) => a - b)).toEqual(built.map((b) => b.key));
    expect(built.map((b) => byKey.get(b.key)!.priority)).toEqual(['low', 'high', 'low']);
    expect(built.map((b) => byKey.get(b.key)!.service?.name ?? null)).toEqual([null, null, 'Built service']);
    expect(built.map((b) => byKey.get(b.key)!.category_ref.map((c) => c.id))).toEqual(
      reference.categories.slice(0, 3).map((c) => [c.id]),
    );
  });

  it('make a service whose SLA rows set the deadline of an incident registered on it', async () => {
    const system = await buildSystem(ctx);
    await buildService(ctx, system.id);
    const reference = await issueTypeReference(ctx);
    const customer = await buildCustomer(ctx, [system.id]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/incs/',
      headers: bearer(await customer.login()),
      payload: {
        system: system.id,
        summary: 'Deadline',
        issuetype: reference.id,
        priority: 'high',
        description: 'd',
        primary_category: reference.categories[0]!.id,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<IncidentListItem>();
    expect(item.sla! - item.created).toBe(BUILT_SLA_HOURS.high * 3_600_000);
  });

  it('make a varied set in which every filter matches some incidents and leaves others out', async () => {
    const [one, two] = [await buildSystem(ctx), await buildSystem(ctx)];
    const customer = await buildCustomer(ctx, [one.id]);
    const built = await buildVariedIncidents(ctx, [
      { id: one.id, count: 20, assigneeId: customer.id },
      { id: two.id, count: 20 },
    ]);
    expect(built).toHaveLength(40);
    const access = await (await buildAnalyst(ctx)).login();
    const scope = `system__in=${one.id},${two.id}`;
    for (const filter of [
      '',
      'priority__in=critical',
      'status__in=closed',
      'service__in=Vision',
      'sla_breached=true',
      'customer_assignee__isnull=false',
      'gossopka_id__isnull=false',
      'resolution__in=TP',
      'tags__in=vpn',
      'tactic__in=initial-access',
      'rule__in=DNS tunnelling pattern',
      'host__icontains=dc01',
      'search=LSASS',
    ]) {
      const res = await ctx.app.inject({
        url: `/api/v0/soc/incs/?limit=1&${scope}&${filter}`,
        headers: bearer(access),
      });
      const { total } = res.json<{ total: number }>();
      if (filter) {
        expect(total, filter).toBeGreaterThan(0);
        expect(total, filter).toBeLessThan(40);
      } else expect(total).toBe(40);
    }
  });

  it('make a log source that its system’s customer lists, and no other customer', async () => {
    const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
    const source = await buildLogSource(ctx, own.id, { lastEventAt: new Date() });
    const names = async (systemId: number) => {
      const res = await ctx.app.inject({
        url: '/api/v0/soc/logsources/?page_size=100',
        headers: bearer(await (await buildCustomer(ctx, [systemId])).login()),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ results: { name: string; status: string }[] }>().results;
    };
    expect(await names(own.id)).toEqual([expect.objectContaining({ name: source.name, status: 'active' })]);
    expect(await names(other.id)).toEqual([]);
  });

  it('forget the events of built rows, so that running the jobs mails no one about them', async () => {
    const system = await buildSystem(ctx);
    await buildCustomer(ctx, [system.id]);
    await buildIncidents(ctx, system.id, 3);
    await ctx.app.jobs.runDue();
    await buildIncidents(ctx, system.id, 3);
    await forgetBuiltEvents(ctx);
    const before = await ctx.database.db.query.jobs.findMany();
    await ctx.app.jobs.runDue();
    const after = await ctx.database.db.query.jobs.findMany();
    expect(after.length).toBe(before.length);
  });
});
