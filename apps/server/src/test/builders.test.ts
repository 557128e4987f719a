import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemCard } from '@soc/contracts';
import type { TestContext } from './harness.ts';
import { bearer, createTestContext } from './harness.ts';
import {
  buildAlert,
  buildAnalyst,
  buildComment,
  buildCustomer,
  buildIncident,
  buildSystem,
} from './builders.ts';
import { buildAsset, buildContact, buildContract, buildDocument, buildService } from './builders-e.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx?.close());

const get = (access: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(access) });

describe('test builders', () => {
  it('make data that the API serves to its tenant only, the analyst seeing all of it', async () => {
    const own = await buildSystem(ctx);
    const other = await buildSystem(ctx);
    const customer = await buildCustomer(ctx, [own.id]);
    const analyst = await buildAnalyst(ctx);
    const mine = await buildIncident(ctx, own.id, { summary: 'Built incident', priority: 'high' });
    const theirs = await buildIncident(ctx, other.id);
    await buildComment(ctx, mine.id, { body: '<p>Built comment</p>' });
    await buildAlert(ctx, own.id, { incidentId: mine.id, title: 'Built alert' });

    const access = await customer.login();
    const list = await get(access, `/incs/?key__in=${mine.key},${theirs.key}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ results: { key: number; summary: string }[] }>().results).toEqual([
      expect.objectContaining({ key: mine.key, summary: 'Built incident' }),
    ]);
    const comments = await get(access, `/incs/${mine.key}/comments/`);
    expect(comments.json<{ results: { body: string }[] }>().results.map((c) => c.body)).toEqual([
      '<p>Built comment</p>',
    ]);
    const alerts = await get(access, `/incs/${mine.key}/alerts/`);
    expect(alerts.statusCode, alerts.body).toBe(200);
    expect(alerts.body).toContain('Built alert');
    expect((await get(access, `/incs/${theirs.key}/`)).statusCode).toBe(404);

    const staff = await analyst.login();
    const all = await get(staff, `/incs/?key__in=${mine.key},${theirs.key}`);
    expect(all.json<{ total: number }>().total).toBe(2);
  });
});

describe('test builders (services, assets)', () => {
  it('make a contract, a service with its SLA, a contact and an asset that the system’s customer sees', async () => {
    const system = await buildSystem(ctx);
    const contract = await buildContract(ctx, system.id);
    const service = await buildService(ctx, system.id, 'Focus', {
      sla: { high: 4, low: 24 },
      contractId: contract.id,
    });
    const contact = await buildContact(ctx, system.id);
    const asset = await buildAsset(ctx, system.id, { name: 'ws-built' });
    const access = await (await buildCustomer(ctx, [system.id])).login();

    const card = await get(access, `/systems/${system.id}/`);
    expect(card.statusCode, card.body).toBe(200);
    const shown = card.json<SystemCard>();
    expect(shown.services).toHaveLength(1);
    expect(shown.services[0]).toMatchObject({
      id: service.id,
      name: 'Focus',
      contract: { number: contract.number },
      sla: [
        { category: 'high', hours: 4 },
        { category: 'low', hours: 24 },
      ],
    });
    expect(shown.customer_contacts.map((c) => c.email)).toEqual([contact.email]);
    const assets = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/cmdb/assets/',
      headers: bearer(access),
    });
    expect(assets.statusCode, assets.body).toBe(200);
    expect(assets.json<{ results: { cmdb_id: string; name: string }[] }>().results).toEqual([
      expect.objectContaining({ cmdb_id: asset.cmdbId, name: 'ws-built' }),
    ]);
  });
});

describe('test builders (documents)', () => {
  it('make an article of the documentation hub that a customer can open', async () => {
    const article = await buildDocument(ctx, { title: 'Built article' });
    const access = await (await buildCustomer(ctx)).login();
    const res = await get(access, `/articles/${article.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ id: number; title: string }>()).toMatchObject({
      id: article.id,
      title: 'Built article',
    });
  });
});
