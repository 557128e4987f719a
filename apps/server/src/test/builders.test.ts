import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentListItem, SystemCard } from '@soc/contracts';
import type { TestContext } from './harness.ts';
import { bearer, createTestContext } from './harness.ts';
import {
  BUILT_SLA_HOURS,
  buildAlert,
  buildAlerts,
  buildAnalyst,
  buildAsset,
  buildComment,
  buildContact,
  buildContract,
  buildCustomer,
  buildDocument,
  buildIncident,
  buildIncidents,
  buildLinkTemplate,
  buildLogSource,
  buildReport,
  buildReportSchedule,
  buildMisconfig,
  buildResponseTeam,
  buildService,
  buildSnapshot,
  buildSoftware,
  buildSystem,
  buildVariedIncidents,
  forgetBuiltEvents,
  issueTypeReference,
} from './builders.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx?.close());

const get = (access: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(access) });

/** A page of `/api/v0${url}`, which must answer 200. */
const getList = async (access: string, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(access) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ total: number; results: Record<string, unknown>[] }>();
};

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

describe('test builders (services, contracts, contacts, log sources)', () => {
  it('make a contract, a service with its SLA, a contact and an asset that the system’s customer sees', async () => {
    const system = await buildSystem(ctx);
    const contract = await buildContract(ctx, system.id);
    const service = await buildService(ctx, system.id, {
      name: 'Focus',
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

  it('make a service whose SLA rows set the deadline of an incident registered on it', async () => {
    const system = await buildSystem(ctx);
    await buildService(ctx, system.id, { sla: BUILT_SLA_HOURS });
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
});

describe('test builders (incidents in bulk, reference data, events)', () => {
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

describe('test builders (inventory)', () => {
  it('make a service, an asset, its software and its snapshot in an incident that the API serves', async () => {
    const system = await buildSystem(ctx);
    const access = await (await buildCustomer(ctx, [system.id])).login();
    const service = await buildService(ctx, system.id, { name: 'Built service' });
    const incident = await buildIncident(ctx, system.id, { serviceId: service.id });
    const asset = await buildAsset(ctx, system.id, { name: 'built-host', os: 'Built OS' });
    await buildSoftware(ctx, asset.id, [{ name: 'Built program' }, { name: 'Built update' }]);
    await buildSnapshot(ctx, incident.id, asset, { systemId: system.id });

    const byService = await getList(access, `/soc/incs/?service__in=${encodeURIComponent('Built service')}`);
    expect(byService.results.map((i) => i.key)).toEqual([incident.key]);
    const assets = await getList(access, '/cmdb/assets/');
    expect(assets.results).toEqual([
      expect.objectContaining({ cmdb_id: asset.cmdbId, name: 'built-host', os: 'Built OS' }),
    ]);
    const software = await getList(access, `/cmdb/assets/${asset.cmdbId}/software/`);
    expect(software.results.map((s) => s.name)).toEqual(['Built program', 'Built update']);
    const incidents = await getList(access, `/cmdb/assets/${asset.cmdbId}/incidents/`);
    expect(incidents.results.map((i) => i.key)).toEqual([incident.key]);
  });
});

describe('test builders (documents)', () => {
  it('make an article of the documentation hub that every signed-in customer can open', async () => {
    const article = await buildDocument(ctx, { title: 'Built article' });
    const access = await (await buildCustomer(ctx)).login();
    const res = await get(access, `/articles/${article.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ id: number; title: string }>()).toMatchObject({
      id: article.id,
      title: 'Built article',
    });
  });

  it('make an English article as readable as the default Russian one', async () => {
    const access = await (await buildCustomer(ctx)).login();
    const article = await buildDocument(ctx, { title: 'Built English article', language: 'en' });
    const res = await get(access, `/articles/${article.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ title: string }>().title).toBe('Built English article');
  });
});

describe('test builders (reports, response teams)', () => {
  it('make a ready report and a schedule that the system’s customer opens, and no other customer', async () => {
    const system = await buildSystem(ctx);
    const report = await buildReport(ctx, [system.id]);
    const schedule = await buildReportSchedule(ctx, [system.id], { name: 'Built schedule' });
    const access = await (await buildCustomer(ctx, [system.id])).login();
    const other = await (await buildCustomer(ctx, [(await buildSystem(ctx)).id])).login();
    const card = await get(access, `/reports/${report.id}/`);
    expect(card.statusCode, card.body).toBe(200);
    const file = await get(access, `/reports/${report.id}/download/`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(other, `/reports/${report.id}/`)).statusCode).toBe(404);
    const tasks = await getList(access, '/soc/report_tasks/');
    expect(tasks.results.map((t) => [t.id, t.name])).toEqual([[schedule.id, 'Built schedule']]);
  });

  it('make a response team that its system’s customer lists, and no other customer', async () => {
    const system = await buildSystem(ctx);
    const team = await buildResponseTeam(ctx, system.id, { name: 'Built team' });
    const access = await (await buildCustomer(ctx, [system.id])).login();
    const other = await (await buildCustomer(ctx, [(await buildSystem(ctx)).id])).login();
    const teams = (url: string, token: string) =>
      get(token, url).then((r) => r.json<{ results: { id: number; name: string }[] }>().results);
    expect(await teams('/response_teams/', access)).toEqual([
      expect.objectContaining({ id: team.id, name: 'Built team' }),
    ]);
    expect((await teams('/response_teams/', other)).map((t) => t.id)).not.toContain(team.id);
  });
});

describe('test builders (alerts, response teams, link templates, misconfigurations)', () => {
  it('make alerts, teams, link templates and misconfigurations as the API shows them', async () => {
    const system = await buildSystem(ctx);
    const access = await (await buildCustomer(ctx, [system.id])).login();
    const get = async (url: string) => {
      const res = await ctx.app.inject({ url, headers: { ...bearer(access), 'accept-language': 'en' } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ total: number; results: Record<string, unknown>[] }>();
    };
    const incident = await buildIncident(ctx, system.id);
    const built = await buildAlerts(ctx, system.id, 3, (i) => ({
      incidentId: incident.id,
      severity: i === 0 ? 'High' : 'Low',
      events: [
        { id: 'e1', parent: null, dt: 0, host: 'h', user: 'u', process: 'p', pid: 1, cmdline: '' },
        {
          id: 'e2',
          parent: 'e1',
          dt: 1,
          host: 'h',
          user: 'u',
          process: 'q',
          pid: 2,
          cmdline: '',
          dst_ip: `203.0.113.${i}`,
        },
      ],
    }));
    expect(built).toHaveLength(3);
    const page = await get(`/api/v0/soc/incs/${incident.key}/alerts/`);
    expect(page.total).toBe(3);
    const severity = new Map(page.results.map((a) => [a.uuid, a.severity]));
    expect(built.map((a) => severity.get(a.id))).toEqual(['High', 'Low', 'Low']);
    const team = await buildResponseTeam(ctx, system.id, { name: 'Built team' });
    expect((await get('/api/v0/soc/response_teams/')).results).toEqual([team]);
    const link = await buildLinkTemplate(ctx, { systemId: system.id });
    const offered = await get(`/api/v0/alerts/${built[0]!.id}/available_links_templates/`);
    expect(offered.results.find((t) => t.id === link.id)?.values).toEqual(['203.0.113.0']);
    const remediation = await buildIncident(ctx, system.id, { type: 'remediation' });
    const misconfig = await buildMisconfig(ctx, system.id, [remediation.id]);
    const listed = await get(`/api/v0/soc/incs/${remediation.key}/misconfigs/`);
    expect(listed.results.map((m) => [m.id, m.recommendation])).toEqual([
      [misconfig.id, misconfig.recommendation],
    ]);
  });
});
