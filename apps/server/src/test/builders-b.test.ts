import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from './harness.ts';
import { bearer, createTestContext } from './harness.ts';
import { buildCustomer, buildIncident, buildSystem } from './builders.ts';
import {
  buildAsset,
  buildContact,
  buildDocument,
  buildService,
  buildSnapshot,
  buildSoftware,
} from './builders-b.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx?.close());

const get = async (access: string, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(access) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ total: number; results: Record<string, unknown>[] }>();
};

describe('test builders of helper B', () => {
  it('make a service, an asset, its software and its snapshot in an incident that the API serves', async () => {
    const system = await buildSystem(ctx);
    const access = await (await buildCustomer(ctx, [system.id])).login();
    const service = await buildService(ctx, system.id, { name: 'Built service' });
    const incident = await buildIncident(ctx, system.id, { serviceId: service.id });
    const asset = await buildAsset(ctx, system.id, { name: 'built-host', os: 'Built OS' });
    await buildSoftware(ctx, asset.id, [{ name: 'Built program' }, { name: 'Built update' }]);
    await buildSnapshot(ctx, incident.id, asset, { systemId: system.id });

    const byService = await get(access, `/soc/incs/?service__in=${encodeURIComponent('Built service')}`);
    expect(byService.results.map((i) => i.key)).toEqual([incident.key]);
    const assets = await get(access, '/cmdb/assets/');
    expect(assets.results).toEqual([
      expect.objectContaining({ cmdb_id: asset.cmdbId, name: 'built-host', os: 'Built OS' }),
    ]);
    const software = await get(access, `/cmdb/assets/${asset.cmdbId}/software/`);
    expect(software.results.map((s) => s.name)).toEqual(['Built program', 'Built update']);
    const incidents = await get(access, `/cmdb/assets/${asset.cmdbId}/incidents/`);
    expect(incidents.results.map((i) => i.key)).toEqual([incident.key]);
  });

  it('make an article that every signed-in user reads', async () => {
    const access = await (await buildCustomer(ctx)).login();
    const article = await buildDocument(ctx, { title: 'Built article' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/articles/${article.id}/`,
      headers: bearer(access),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ title: string }>().title).toBe('Built article');
  });

  it('make a contact of a system who is told of its new incidents', async () => {
    const system = await buildSystem(ctx);
    const contact = await buildContact(ctx, system.id, { locale: 'en' });
    // a built incident is registered as one the SOC raised: its contacts get the mail
    await buildIncident(ctx, system.id, { summary: 'Built contact check' });
    await ctx.app.jobs.runDue();
    const outbox = ctx.config.mail.outboxDir;
    const mails = await Promise.all(
      (await readdir(outbox)).map(async (f) => PostalMime.parse(await readFile(path.join(outbox, f)))),
    );
    const mail = mails.find((m) => m.subject?.endsWith('Incident registered: Built contact check'));
    expect(mail?.to?.map((a) => a.address)).toEqual([contact.email]);
  });
});
