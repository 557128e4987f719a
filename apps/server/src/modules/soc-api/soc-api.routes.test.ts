import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlertPage,
  AnalystAlertsBulkResult,
  ApiTokenCreated,
  IncidentCard,
  Misconfig,
} from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import { categories, incidents, issueTypes, jobs, logSources } from '../../db/schema/index.ts';
import {
  buildAnalyst,
  buildAsset,
  buildCustomer,
  buildIncident,
  buildService,
  buildSystem,
  buildUser,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const sessions: Record<string, string> = {};
const sys: Record<string, number> = {};
let incidentType: { id: number; categories: number[] };
let serviceOf1: number;
let assetsOf1: string[];
/** An incident of the second system. */
let keyOf2: number;
let analystId: number;

const call = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  token: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  ctx.app.inject({
    method,
    url: `/api/v0${url}`,
    headers: { ...bearer(token), ...headers },
    ...(payload ? { payload } : {}),
  });

const alert = (over: object = {}) => ({
  uuid: randomUUID(),
  severity: 'High',
  title: 'Encoded PowerShell started by an Office document',
  platform: 'windows',
  rule: 'WIN-PS-ENC-001',
  affected_assets: [assetsOf1[0]!],
  events: [
    { id: 'e1', parent: null, dt: 0, host: 'ws-1', process: 'winword.exe', pid: 10, cmdline: 'winword' },
  ],
  tags: [{ name: 'phishing', color: 'red' }],
  ...over,
});

const incidentBody = (over: object = {}) => ({
  system: sys.first,
  issuetype: incidentType.id,
  service: serviceOf1,
  primary_category: incidentType.categories[0],
  secondary_category: [incidentType.categories[1]],
  summary: 'Malicious macro on ws-0042 connected to a C2 server',
  description: 'An Office document ran an **encoded PowerShell** command.',
  priority: 'high',
  tags: ['phishing', 'c2'],
  recommendations: 'Isolate the host.',
  status_description: 'Host isolation requested',
  affected_systems: ['ws-0042'],
  activity_detected_at: Date.parse('2026-11-19T08:00:00Z'),
  observed_iocs: [
    { ioc: '203.0.113.7', ioc_type: 'ipv4', category: ['C2'] },
    { ioc: 'cdn-4f2a.example.net', ioc_type: 'fqdn' },
  ],
  mitre_cov: { execution: ['T1059.001'], 'command-and-control': ['T1071'] },
  detection_rules: ['WIN-PS-ENC-001'],
  affected_assets: assetsOf1.slice(0, 2),
  gossopka_planned_time: Date.now() + 3_600_000,
  alerts: [alert(), alert({ severity: 'Low', title: 'Outbound connection to a rare domain', tags: [] })],
  ...over,
});

async function create(token: string, body: object, key?: string) {
  return call('POST', '/analyst/incidents/', token, body, key ? { 'idempotency-key': key } : {});
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [first, second] = [await buildSystem(ctx), await buildSystem(ctx)];
  Object.assign(sys, { first: first.id, second: second.id });
  sessions.customer = await (await buildCustomer(ctx, [first.id])).login();
  sessions.otherCustomer = await (await buildCustomer(ctx, [second.id])).login();
  const analyst = await buildAnalyst(ctx);
  analystId = analyst.id;
  sessions.analyst = await analyst.login();
  sessions.admin = await (await buildUser(ctx, { role: 'admin' })).login();
  const db = ctx.database.db;
  const [type] = await db
    .select({ id: issueTypes.id })
    .from(issueTypes)
    .where(eq(issueTypes.code, 'incident'));
  const cats = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.issueTypeId, type!.id))
    .orderBy(asc(categories.id));
  incidentType = { id: type!.id, categories: cats.map((c) => c.id) };
  serviceOf1 = (
    await buildService(ctx, first.id, { name: 'Focus', sla: { critical: 1, high: 4, medium: 8, low: 24 } })
  ).id;
  assetsOf1 = [];
  for (let i = 0; i < 3; i++)
    assetsOf1.push((await buildAsset(ctx, first.id, { assetType: 'workstation' })).cmdbId);
  keyOf2 = (await buildIncident(ctx, second.id)).key;
});
afterAll(async () => ctx?.close());

describe('analyst API: access', () => {
  it('refuses customers with 403 on every analyst endpoint, before looking at the body', async () => {
    const calls: [string, string][] = [
      ['POST', '/analyst/incidents/'],
      ['PATCH', '/analyst/incidents/1/'],
      ['POST', '/analyst/incidents/1/status/'],
      ['POST', '/analyst/incidents/1/comments/'],
      ['POST', '/analyst/incidents/1/notes/'],
      ['GET', '/analyst/incidents/1/notes/'],
      ['POST', '/analyst/incidents/1/alerts/'],
      ['POST', '/analyst/incidents/1/misconfigs/'],
      ['POST', '/analyst/log_sources/'],
      ['POST', '/analyst/log_sources/1/eps/'],
      ['POST', '/analyst/documents/articles/'],
      ['POST', '/analyst/rules/'],
    ];
    for (const [method, url] of calls) {
      const res = await call(method as 'POST', url, sessions.customer!, { nonsense: true });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await create(sessions.customer!, incidentBody())).statusCode).toBe(403);
  });

  it('documents the analyst calls with examples in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject('/api/v0/docs/json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const create = JSON.stringify(doc.paths['/api/v0/analyst/incidents/']);
    expect(create).toContain('"example":{"system"');
    expect(create).toContain('idempotency-key');
    for (const path of [
      '/api/v0/analyst/incidents/{key}/alerts/',
      '/api/v0/analyst/log_sources/{id}/eps/',
      '/api/v0/analyst/rules/',
    ])
      expect(doc.paths[path], path).toBeDefined();
  });
});

describe('analyst API: incidents', () => {
  let card: IncidentCard;

  it('creates an incident with every field, its alerts and asset snapshots; the customer sees it', async () => {
    const res = await create(sessions.analyst!, incidentBody());
    expect(res.statusCode, res.body).toBe(201);
    card = res.json<IncidentCard>();
    expect(card.status).toBe('waiting_for_customer');
    expect(card.priority).toBe('high');

    const seen = await call('GET', `/soc/incs/${card.key}/`, sessions.customer!);
    expect(seen.statusCode).toBe(200);
    const c = seen.json<IncidentCard>();
    expect(c.summary).toBe('Malicious macro on ws-0042 connected to a C2 server');
    expect(c.recommendations).toContain('Isolate the host.');
    expect(c.mitre_cov).toEqual({ execution: ['T1059.001'], 'command-and-control': ['T1071'] });
    expect(c.detection_rules).toEqual(['WIN-PS-ENC-001']);
    expect(c.observed_iocs.map((i) => i.ioc)).toEqual(['203.0.113.7', 'cdn-4f2a.example.net']);
    expect(c.affected_systems).toEqual(['ws-0042']);
    expect(c.sla).not.toBeNull();
    expect(c.gossopka_planned_time).not.toBeNull();
    const alertsPage = (
      await call('GET', `/soc/incs/${card.key}/alerts/`, sessions.customer!)
    ).json<AlertPage>();
    expect(alertsPage.total).toBe(2);
    const snaps = (await call('GET', `/soc/incs/${card.key}/snapshots/`, sessions.customer!)).json<{
      total: number;
    }>();
    expect(snaps.total).toBe(2);
    // another tenant's customer cannot see it
    expect((await call('GET', `/soc/incs/${card.key}/`, sessions.otherCustomer!)).statusCode).toBe(404);
  });

  it('registers an incident with a planned report to the national centre; a bad planned time is a 400', async () => {
    const planned = Date.now() + 2 * 3_600_000;
    const res = await create(sessions.analyst!, incidentBody({ alerts: [], gossopka_planned_time: planned }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<IncidentCard>();
    expect(created).toMatchObject({ gossopka_planned_time: planned, gossopka_state: 'planned' });
    const seen = (await call('GET', `/soc/incs/${created.key}/`, sessions.customer!)).json<IncidentCard>();
    expect(seen.gossopka_planned_time).toBe(planned);
    const [row] = await ctx.database.db
      .select({ planned: incidents.gossopkaPlannedTime })
      .from(incidents)
      .where(eq(incidents.key, created.key));
    expect(row!.planned?.getTime()).toBe(planned);
    // the send is queued for the planned time, carrying it so that a moved plan can tell
    const sends = await ctx.database.db.select().from(jobs).where(eq(jobs.type, 'incident.gossopka_send'));
    const mine = sends.filter((j) => j.payload.incidentId === created.id);
    expect(mine.map((j) => [j.runAt.getTime(), j.payload.plannedFor])).toEqual([[planned, planned]]);

    const count = async () =>
      (await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(incidents))[0]!.n;
    const before = await count();
    for (const bad of [Date.now() - 60_000, 'tomorrow', 1.5]) {
      const refused = await create(
        sessions.analyst!,
        incidentBody({ alerts: [], gossopka_planned_time: bad }),
      );
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json(), String(bad)).toHaveProperty('gossopka_planned_time');
    }
    expect(await count()).toBe(before);
  });

  it('refuses categories of another type, unknown assets and alert uuids already stored', async () => {
    const wrong = await create(sessions.analyst!, incidentBody({ primary_category: 999_999 }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toHaveProperty('primary_category');
    const asset = await create(sessions.analyst!, incidentBody({ affected_assets: ['NO-SUCH-ASSET'] }));
    expect(asset.json()).toHaveProperty('affected_assets');
    const stored = await create(
      sessions.analyst!,
      incidentBody({ alerts: [alert({ uuid: await firstAlert(card.key) })] }),
    );
    expect(stored.statusCode).toBe(400);
    expect(stored.json()).toHaveProperty('alerts');
  });

  it('creates once per Idempotency-Key: a retry answers the same incident, another body is refused', async () => {
    const key = randomUUID();
    const body = incidentBody({ alerts: [alert()] });
    const count = async () =>
      (await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(incidents))[0]!.n;
    const before = await count();
    const first = await create(sessions.analyst!, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await create(sessions.analyst!, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<IncidentCard>().key).toBe(first.json<IncidentCard>().key);
    expect(again.json<IncidentCard>().id).toBe(first.json<IncidentCard>().id);
    expect(await count()).toBe(before + 1);
    const other = await create(sessions.analyst!, { ...body, summary: 'Something else' }, key);
    expect(other.statusCode).toBe(422);
    // in the portal's default language, as every message without Accept-Language (issue 28)
    expect(other.json()).toEqual({ detail: 'Этот ключ Idempotency-Key уже использован с другим запросом.' });
    // a failed call releases its key: the retry runs
    const badKey = randomUUID();
    expect(
      (await create(sessions.analyst!, incidentBody({ primary_category: 999_999 }), badKey)).statusCode,
    ).toBe(400);
    expect((await create(sessions.analyst!, incidentBody({ alerts: [] }), badKey)).statusCode).toBe(201);
    // keys are per caller: the same key of another analyst creates its own incident
    const theirs = await create(sessions.admin!, body === undefined ? {} : incidentBody({ alerts: [] }), key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json<IncidentCard>().key).not.toBe(first.json<IncidentCard>().key);
  });

  it('updates fields; lists replace the stored ones', async () => {
    const res = await call('PATCH', `/analyst/incidents/${card.key}/`, sessions.analyst!, {
      priority: 'critical',
      tags: ['escalated'],
      mitre_cov: { 'initial-access': ['T1566.001'] },
      observed_iocs: [{ ioc: 'evil.example.org', ioc_type: 'fqdn' }],
      affected_assets: [assetsOf1[2] ?? assetsOf1[0]!],
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json<IncidentCard>();
    expect(c.priority).toBe('critical');
    expect(c.tags).toEqual(['escalated']);
    expect(c.mitre_cov).toEqual({ 'initial-access': ['T1566.001'] });
    expect(c.observed_iocs.map((i) => i.ioc)).toEqual(['evil.example.org']);
    const empty = await call('PATCH', `/analyst/incidents/${card.key}/`, sessions.analyst!, {});
    expect(empty.statusCode).toBe(400);
  });

  it('adds alerts in bulk, idempotent by uuid; a uuid of another incident is a conflict', async () => {
    const fresh = [alert(), alert()];
    const first = await call('POST', `/analyst/incidents/${card.key}/alerts/`, sessions.analyst!, {
      alerts: fresh,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<AnalystAlertsBulkResult>().created).toHaveLength(2);
    const again = await call('POST', `/analyst/incidents/${card.key}/alerts/`, sessions.analyst!, {
      alerts: fresh,
    });
    expect(again.json<AnalystAlertsBulkResult>()).toEqual({
      created: [],
      existing: fresh.map((a) => a.uuid),
      conflicts: [],
    });
    expect(
      (await call('GET', `/soc/incs/${card.key}/alerts/`, sessions.customer!)).json<AlertPage>().total,
    ).toBe(4);

    const other = (await create(sessions.analyst!, incidentBody({ alerts: [] }))).json<IncidentCard>();
    const moved = await call('POST', `/analyst/incidents/${other.key}/alerts/`, sessions.analyst!, {
      alerts: [fresh[0]],
    });
    expect(moved.json<AnalystAlertsBulkResult>().conflicts).toEqual([fresh[0]!.uuid]);
  });

  it('posts comments marked as the SOC’s and sets Completed through the workflow', async () => {
    const comment = await call('POST', `/analyst/incidents/${card.key}/comments/`, sessions.analyst!, {
      body: 'Please confirm **who** opened the attachment.',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    expect(comment.json()).toMatchObject({ from_soc: true });
    expect(comment.json<{ body: string }>().body).toContain('<strong>who</strong>');
    const list = await call('GET', `/soc/incs/${card.key}/comments/`, sessions.customer!);
    expect(JSON.stringify(list.json())).toContain('who');

    const done = await call('POST', `/analyst/incidents/${card.key}/status/`, sessions.analyst!, {
      status: 'completed',
      comment: 'The host was re-imaged.',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<IncidentCard>().status).toBe('completed');
    const twice = await call('POST', `/analyst/incidents/${card.key}/status/`, sessions.analyst!, {
      status: 'canceled',
      comment: 'x',
    });
    expect(twice.statusCode).toBe(400);
  });

  it('creates misconfigurations the incident page lists', async () => {
    const res = await call('POST', `/analyst/incidents/${card.key}/misconfigs/`, sessions.analyst!, {
      items: [{ title: 'SMBv1 enabled', severity: 'high', affected_assets: ['srv-01'] }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [created] = res.json<{ results: Misconfig[] }>().results;
    expect(created).toMatchObject({ affected_assets: ['srv-01'], status: 'open' });
    expect(created!.incidents.map((i) => i.key)).toEqual([card.key]);
    const page = (await call('GET', `/soc/incs/${card.key}/misconfigs/`, sessions.customer!)).json<{
      results: Misconfig[];
    }>();
    expect(page.results.map((m) => m.title)).toContain('SMBv1 enabled');
  });
});

describe('analyst API through service tokens', () => {
  it('a token scoped to one system cannot create on, read or touch another system', async () => {
    const res = await call('POST', '/admin/service_tokens/', sessions.admin!, {
      name: 'SIEM of the first system',
      user_id: analystId,
      systems: [sys.first],
    });
    const { token } = res.json<ApiTokenCreated>();
    const ok = await create(token, incidentBody({ alerts: [] }));
    expect(ok.statusCode, ok.body).toBe(201);
    const foreign = await create(
      token,
      incidentBody({ system: sys.second, service: undefined, affected_assets: [], alerts: [] }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toHaveProperty('system');
    expect(
      (await call('PATCH', `/analyst/incidents/${keyOf2}/`, token, { priority: 'low' })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/analyst/incidents/${keyOf2}/comments/`, token, { body: 'x' })).statusCode,
    ).toBe(404);
  });
});

describe('Idempotency-Key per token', () => {
  /** A new unscoped service token of the analyst. */
  async function analystToken(name: string): Promise<string> {
    const res = await call('POST', '/admin/service_tokens/', sessions.admin!, { name, user_id: analystId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiTokenCreated>().token;
  }

  it('the same key from two tokens of one analyst creates two incidents; from one token it replays', async () => {
    const [first, second] = [await analystToken('SOAR one'), await analystToken('SOAR two')];
    const key = randomUUID();
    const body = incidentBody({ alerts: [] });
    const a = await create(first, body, key);
    expect(a.statusCode, a.body).toBe(201);
    const b = await create(second, body, key);
    expect(b.statusCode, b.body).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json<IncidentCard>().id).not.toBe(a.json<IncidentCard>().id);
    const replay = await create(first, body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json<IncidentCard>().id).toBe(a.json<IncidentCard>().id);
    // nor does the analyst's own sign-in session share the tokens' key
    const session = await create(sessions.analyst!, body, key);
    expect(session.headers['idempotent-replayed']).toBeUndefined();
    expect([a, b].map((r) => r.json<IncidentCard>().id)).not.toContain(session.json<IncidentCard>().id);
  });
});

describe('analyst API: EPS, documents, rules', () => {
  const epsOf = async (systemId: number, hour: string) =>
    (
      await queryRows<{ events: number }>(
        ctx.database.db,
        sql`SELECT events::int AS events FROM eps_hourly WHERE system_id = ${systemId} AND bucket_start = ${hour}::timestamptz`,
      )
    )[0]?.events ?? 0;

  it('feeds log_source_event_buckets and keeps eps_hourly exact for add and set', async () => {
    const source = await call('POST', '/analyst/log_sources/', sessions.analyst!, {
      system: sys.first,
      name: 'DC-01 Security log',
      source_type: 'windows',
    });
    expect(source.statusCode, source.body).toBe(201);
    const { id } = source.json<{ id: number }>();
    const hour = '2030-01-01T10:00:00.000Z';
    const at = Date.parse(hour);
    const systemBefore = await epsOf(sys.first!, hour);
    const allBefore = await epsOf(0, hour);
    const push = (body: object, key?: string) =>
      call(
        'POST',
        `/analyst/log_sources/${id}/eps/`,
        sessions.analyst!,
        body,
        key ? { 'idempotency-key': key } : {},
      );
    const key = randomUUID();
    const added = await push(
      {
        samples: [
          { at, events: 1000 },
          { at: at + 60_000, events: 500 },
        ],
      },
      key,
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({ buckets: 1, last_event_at: at + 60_000 });
    // the retried add is answered from the key, not counted again
    expect(
      (
        await push(
          {
            samples: [
              { at, events: 1000 },
              { at: at + 60_000, events: 500 },
            ],
          },
          key,
        )
      ).statusCode,
    ).toBe(200);
    expect(await epsOf(sys.first!, hour)).toBe(systemBefore + 1500);
    await push({ samples: [{ at, events: 200 }] });
    expect(await epsOf(sys.first!, hour)).toBe(systemBefore + 1700);
    await push({ mode: 'set', samples: [{ at, events: 900 }] });
    await push({ mode: 'set', samples: [{ at, events: 900 }] });
    expect(await epsOf(sys.first!, hour)).toBe(systemBefore + 900);
    expect(await epsOf(0, hour)).toBe(allBefore + 900);
    const [row] = await ctx.database.db
      .select()
      .from(logSources)
      .where(and(eq(logSources.id, id)));
    expect(row!.lastEventAt?.getTime()).toBe(at + 60_000);
  });

  it('publishes documents and rules (created, then replaced by rule_id)', async () => {
    const doc = await call('POST', '/analyst/documents/articles/', sessions.analyst!, {
      title: 'Isolating a workstation',
      description: '## Steps',
      language: 'en',
    });
    expect(doc.statusCode, doc.body).toBe(201);
    const rule = {
      rule_id: 'SOC-R-9001',
      name: 'WIN-PS-ENC-TEST',
      caption_ru: 'Закодированный PowerShell',
      caption_en: 'Encoded PowerShell',
      severity: 'High',
      confidence: 'Medium',
      available_for_services: ['Horizon'],
      mitre_cov: { execution: ['T1059.001'] },
      sensor_tuples: [{ sensor: 'EDR', sensor_module: 'process', sensor_type: 'agent' }],
    };
    const first = await call('POST', '/analyst/rules/', sessions.analyst!, rule);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: true, rule: { rule_id: 'SOC-R-9001' } });
    const { rule: saved } = first.json<{ rule: { id: number; mitre_technique: string[] } }>();
    expect(saved.mitre_technique).toEqual(expect.arrayContaining(['T1059.001', 'T1059']));
    const second = await call('POST', '/analyst/rules/', sessions.analyst!, {
      ...rule,
      severity: 'Critical',
    });
    expect(second.json()).toMatchObject({ created: false, rule: { id: saved.id, severity: 'Critical' } });
    const card = await call('GET', `/soc/rules/${saved.id}/`, sessions.analyst!);
    expect(card.json()).toMatchObject({ severity: 'Critical' });
  });
});

async function firstAlert(key: number): Promise<string> {
  const page = (await call('GET', `/soc/incs/${key}/alerts/`, sessions.analyst!)).json<AlertPage>();
  return page.results[0]!.uuid;
}
