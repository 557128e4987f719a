import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, AlertDetail } from '@soc/contracts';
import {
  AlertDetailSchema,
  AlertPageSchema,
  AlertTreeSchema,
  GroupedAlertDataSchema,
  MisconfigPageSchema,
  SnapshotPageSchema,
} from '@soc/contracts';
import type { AlertAssetRef, AlertEvent } from '../../db/schema/index.ts';
import {
  alertTagNames,
  alertTags,
  alerts,
  incidents,
  linkTemplates,
  responseTeams,
  systems,
} from '../../db/schema/index.ts';
import type { BuiltIncident } from '../../test/builders.ts';
import {
  buildAlerts,
  buildAnalyst,
  buildAsset,
  buildCustomer,
  buildIncident,
  buildLinkTemplate,
  buildMisconfig,
  buildResponseTeam,
  buildSnapshot,
  buildSystem,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** Alice's incident with 120 alerts (`ALERTS`), and one of bob's with 3, on two built systems. */
let aliceKey: number;
let bobKey: number;
let bobAlert: string;
let aliceSystem: number;
let bobSystem: number;
/** Alice's incidents without alerts: one to move alerts to, one to stay empty, a remediation. */
let other: BuiltIncident;
let quietKey: number;
let remediationKey: number;
let misconfigRecommendation: string;
let aliceTeams: number[];
/** The link template built on the events' `dst_ip`, with its URL. */
let lookup: { id: number; url: string };
const ALERTS = 120;

const call = (user: string, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: path,
    headers: { ...bearer(tokens[user]!), 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });
/** The fields these tests read from plain answers (errors are DRF field lists). */
interface Answer {
  non_field_errors: string[];
  classification?: string[];
  url_template?: string[];
  response_team?: unknown;
  results: { id: number; name: string; values: string[] }[];
  url: string;
  updated: number;
  tags: unknown;
}
const inc = (key: number, tail = '') => `/api/v0/soc/incs/${key}/${tail}`;

async function firstAlert(key: number): Promise<Alert> {
  const res = await call('analyst', 'GET', inc(key, 'alerts/?page_size=1'));
  if (res.statusCode !== 200) throw new Error(res.body);
  return AlertPageSchema.parse(res.json()).results[0]!;
}

/** A process chain of three events on `host`; every other alert's last event reaches an address. */
const chain = (host: string, i: number): AlertEvent[] => {
  const event = (id: string, parent: string | null, process: string) =>
    ({
      id,
      parent,
      dt: id.length * 100,
      host,
      user: 'u',
      process,
      pid: 100 + i,
      cmdline: process,
    }) as AlertEvent;
  return [
    event('e1', null, 'explorer.exe'),
    event('e2', 'e1', 'winword.exe'),
    { ...event('e3', 'e2', 'powershell.exe'), ...(i % 2 === 0 ? { dst_ip: `203.0.113.${i % 250}` } : {}) },
  ];
};

/**
 * The i-th alert of `incident`: every fourth titled LSASS, severities High, Medium and Low in
 * turn, three groups, one of the `assets` each (in turn), seven seconds apart (the last newest).
 */
const alertOf = (incident: BuiltIncident, assets: AlertAssetRef[], t0: number) => (i: number) => ({
  incidentId: incident.id,
  title: i % 4 === 0 ? `LSASS memory read ${i}` : `Encoded PowerShell ${i}`,
  severity: (['High', 'Medium', 'Low'] as const)[i % 3],
  groupNo: incident.key * 10 + (i % 3),
  affectedAssets: [assets[i % assets.length]!],
  events: chain(assets[i % assets.length]!.name, i),
  createdTime: new Date(t0 + i * 7_000),
  updatedTime: new Date(t0 + i * 7_000),
});

/** An incident of `systemId` with `count` alerts on two assets of its CMDB snapshots. */
async function incidentWithAlerts(systemId: number, count: number): Promise<BuiltIncident> {
  const incident = await buildIncident(ctx, systemId);
  const assets: AlertAssetRef[] = [];
  for (const n of [1, 2]) {
    const asset = await buildAsset(ctx, systemId);
    await buildSnapshot(ctx, incident.id, asset, { systemId });
    assets.push({ cmdb_id: asset.cmdbId, name: asset.name, ip_address: `10.0.0.${n}` });
  }
  await buildAlerts(ctx, systemId, count, alertOf(incident, assets, Date.now() - 86_400_000));
  return incident;
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [a, b] = [await buildSystem(ctx), await buildSystem(ctx)];
  aliceSystem = a.id;
  bobSystem = b.id;
  tokens.alice = await (await buildCustomer(ctx, [a.id])).login();
  tokens.bob = await (await buildCustomer(ctx, [b.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  aliceTeams = [(await buildResponseTeam(ctx, a.id)).id, (await buildResponseTeam(ctx, a.id)).id];
  await buildResponseTeam(ctx, b.id);
  aliceKey = (await incidentWithAlerts(a.id, ALERTS)).key;
  other = await buildIncident(ctx, a.id);
  quietKey = (await buildIncident(ctx, a.id)).key;
  const remediation = await buildIncident(ctx, a.id, { type: 'remediation' });
  remediationKey = remediation.key;
  misconfigRecommendation = (await buildMisconfig(ctx, a.id, [remediation.id])).recommendation;
  bobKey = (await incidentWithAlerts(b.id, 3)).key;
  bobAlert = (await firstAlert(bobKey)).uuid;
  const url = 'https://lookup.test.example/ip/{value}';
  lookup = { id: (await buildLinkTemplate(ctx, { field: 'dst_ip', urlTemplate: url })).id, url };
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('incident alerts', () => {
  it('pages the alerts newest first with next/previous links and a total', async () => {
    const first = await call('alice', 'GET', inc(aliceKey, 'alerts/?page=1'));
    expect(first.statusCode).toBe(200);
    const page1 = AlertPageSchema.parse(first.json());
    expect(page1.total).toBe(ALERTS);
    expect(page1.results).toHaveLength(50);
    expect(page1.previous).toBeNull();
    expect(page1.next).toContain('page=2');
    const times = page1.results.map((r) => r.created_time);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const last = AlertPageSchema.parse((await call('alice', 'GET', inc(aliceKey, 'alerts/?page=3'))).json());
    expect(last.results).toHaveLength(20);
    expect(last.next).toBeNull();
    expect(last.previous).toContain('page=2');
    const all = new Set([...page1.results, ...last.results].map((r) => r.uuid));
    expect(all.size).toBe(70);
    // every alert names assets of the incident's CMDB snapshots
    const snaps = SnapshotPageSchema.parse((await call('alice', 'GET', inc(aliceKey, 'snapshots/'))).json());
    const cmdb = new Set(snaps.results.map((s) => s.cmdb_id));
    for (const alert of page1.results) {
      expect(alert.affected_assets.length).toBeGreaterThan(0);
      for (const asset of alert.affected_assets) expect(cmdb.has(asset.cmdb_id)).toBe(true);
    }
  });

  it('searches the titles', async () => {
    const res = await call('alice', 'GET', inc(aliceKey, 'alerts/?search=LSASS'));
    const page = AlertPageSchema.parse(res.json());
    // every fourth built alert
    expect(page.total).toBe(ALERTS / 4);
    for (const a of page.results) expect(a.title).toMatch(/LSASS/);
  });

  it('gives the detail, grouped data, the nested tree and symptomatic alerts', async () => {
    const alert = await firstAlert(aliceKey);
    const detail = AlertDetailSchema.parse(
      (await call('alice', 'GET', inc(aliceKey, `alerts/${alert.uuid}/`))).json(),
    );
    expect(detail.uuid).toBe(alert.uuid);
    expect(detail.events_count).toBeGreaterThan(0);
    const grouped = GroupedAlertDataSchema.parse(
      (await call('alice', 'GET', inc(aliceKey, `alerts/${alert.uuid}/grouped_alert_data/`))).json(),
    );
    expect(grouped.results.find((g) => g.field === 'process')?.values.length).toBeGreaterThan(0);
    const treeRes = await call('alice', 'GET', inc(aliceKey, `alerts/${alert.uuid}/tree/`));
    expect(treeRes.statusCode).toBe(200);
    const tree = AlertTreeSchema.parse(treeRes.json());
    expect(tree.roots).toHaveLength(1);
    expect(tree.roots[0]!.children.length).toBeGreaterThan(0);
    const symptomatic = AlertPageSchema.parse(
      (await call('alice', 'GET', inc(aliceKey, `alerts/${alert.uuid}/symptomatic/`))).json(),
    );
    expect(symptomatic.total).toBeGreaterThan(0);
    for (const s of symptomatic.results) {
      expect(s.uuid).not.toBe(alert.uuid);
      expect(s.group).toBe(alert.group);
    }
  });

  it('answers a tree failure with non_field_errors', async () => {
    const alert = await firstAlert(aliceKey);
    await ctx.database.db.update(alerts).set({ events: [] }).where(eq(alerts.id, alert.uuid));
    const res = await call('alice', 'GET', inc(aliceKey, `alerts/${alert.uuid}/tree/`));
    expect(res.statusCode).toBe(400);
    expect(res.json<Answer>().non_field_errors[0]).toMatch(/no process events/);
  });

  it('gives the CMDB snapshots paged through next, and misconfigurations', async () => {
    const res = await call('alice', 'GET', inc(aliceKey, 'snapshots/?page_size=1'));
    const page = SnapshotPageSchema.parse(res.json());
    // two built snapshots, each named by half of the alerts
    expect(page.total).toBe(2);
    expect(page.results).toHaveLength(1);
    expect(page.next).toContain('page=2');
    expect(page.results[0]!.alerts_count).toBe(ALERTS / 2);
    const mis = MisconfigPageSchema.parse(
      (await call('analyst', 'GET', inc(remediationKey, 'misconfigs/'))).json(),
    );
    expect(mis.total).toBe(1);
    expect(mis.results[0]!.recommendation).toBe(misconfigRecommendation);
  });
});

describe('tenant isolation', () => {
  it('answers 404 for another tenant’s incident or alert on every alert path', async () => {
    const own = await firstAlert(aliceKey);
    const paths: [string, string, object?][] = [
      ['GET', inc(bobKey, 'alerts/')],
      ['GET', inc(bobKey, `alerts/${bobAlert}/`)],
      ['GET', inc(bobKey, `alerts/${bobAlert}/grouped_alert_data/`)],
      ['GET', inc(bobKey, `alerts/${bobAlert}/tree/`)],
      ['GET', inc(bobKey, `alerts/${bobAlert}/symptomatic/`)],
      ['GET', inc(bobKey, 'snapshots/')],
      ['GET', inc(bobKey, 'misconfigs/')],
      // her own incident with bob's alert
      ['GET', inc(aliceKey, `alerts/${bobAlert}/`)],
      ['GET', inc(aliceKey, `alerts/${bobAlert}/tree/`)],
      ['PATCH', `/api/v0/soc/alerts/${bobAlert}/`, { tags: [{ name: 'x', color: 'red' }] }],
      ['GET', `/api/v0/alerts/${bobAlert}/available_links_templates/`],
      ['GET', `/api/v0/alerts/${bobAlert}/link/?template=1`],
      ['POST', '/api/v0/soc/alerts/bulk/', { alerts: [bobAlert], action: 'reopen' }],
      ['GET', inc(aliceKey, 'alerts/not-a-uuid/')],
    ];
    for (const [method, path, body] of paths) {
      const res = await call('alice', method as 'GET', path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    // and the same paths work for the owner / analysts
    expect((await call('bob', 'GET', inc(bobKey, `alerts/${bobAlert}/`))).statusCode).toBe(200);
    expect((await call('analyst', 'GET', inc(bobKey, `alerts/${bobAlert}/`))).statusCode).toBe(200);
    expect((await call('alice', 'GET', inc(aliceKey, `alerts/${own.uuid}/`))).statusCode).toBe(200);
  });

  it('lists only the caller’s alerts in /soc/alerts/ with the column filters', async () => {
    const res = await call('alice', 'GET', '/api/v0/soc/alerts/?page_size=200');
    const page = AlertPageSchema.parse(res.json());
    expect(page.total).toBe(ALERTS);
    for (const a of page.results) expect(a.system.id).toBe(aliceSystem);
    const foreign = AlertPageSchema.parse(
      (await call('alice', 'GET', `/api/v0/soc/alerts/?system__in=${bobSystem}`)).json(),
    );
    expect(foreign.total).toBe(0);
    const high = AlertPageSchema.parse(
      (
        await call(
          'alice',
          'GET',
          `/api/v0/soc/alerts/?severity__in=High&incident__in=${aliceKey}&ordering=title`,
        )
      ).json(),
    );
    // every third built alert
    expect(high.total).toBe(ALERTS / 3);
    for (const a of high.results) expect([a.severity, a.incident]).toEqual(['High', aliceKey]);
    const titles = high.results.map((a) => a.title);
    expect([...titles].sort()).toEqual(titles);
    expect((await call('alice', 'GET', '/api/v0/soc/alerts/?colour=red')).statusCode).toBe(400);
  });

  it('gives the first page (one statement with the count table’s total) as the later pages see it', async () => {
    const get = async (who: 'alice' | 'analyst', query: string) =>
      AlertPageSchema.parse((await call(who, 'GET', `/api/v0/soc/alerts/?${query}`)).json());
    for (const who of ['alice', 'analyst'] as const) {
      for (const ordering of ['-created_time', 'severity', '-title']) {
        const [first, second] = [
          await get(who, `page_size=30&ordering=${ordering}`),
          await get(who, `page=2&page_size=30&ordering=${ordering}`),
        ];
        expect(first.total).toBe(second.total);
        expect(first.results).toHaveLength(30);
        const ids = new Set([...first.results, ...second.results].map((a) => a.uuid));
        expect(ids.size).toBe(first.results.length + second.results.length);
      }
    }
    const own = await get('alice', `system__in=${aliceSystem}`);
    expect(own.total).toBe((await get('alice', '')).total);
    // an incident without alerts: an empty first page, not a 404
    const empty = await call('alice', 'GET', inc(quietKey, 'alerts/?page=1'));
    expect(empty.statusCode).toBe(200);
    expect(AlertPageSchema.parse(empty.json())).toMatchObject({ total: 0, results: [] });
  });
});

describe('cached pages', () => {
  const db = () => ctx.database.db;
  /** A write that moves no version: the alerts triggers are off while it runs. */
  async function unversioned(write: () => Promise<unknown>) {
    await db().execute(sql`ALTER TABLE alerts DISABLE TRIGGER USER`);
    try {
      await write();
    } finally {
      await db().execute(sql`ALTER TABLE alerts ENABLE TRIGGER USER`);
    }
  }
  const incidentPage = async () =>
    AlertPageSchema.parse((await call('alice', 'GET', inc(aliceKey, 'alerts/?page=1&page_size=5'))).json());
  const alertsPage = async () =>
    AlertPageSchema.parse((await call('alice', 'GET', '/api/v0/soc/alerts/?page_size=5')).json());
  const row = (page: { results: Alert[] }, uuid: string) => page.results.find((a) => a.uuid === uuid)!;

  it('answers a repeated page from the cache and shows every change that moves its version', async () => {
    const before = await incidentPage();
    const listed = await alertsPage();
    const alert = before.results[0]!;
    const other = listed.results[0]!;
    await unversioned(() =>
      db()
        .update(alerts)
        .set({ title: 'Renamed unseen' })
        .where(inArray(alerts.id, [alert.uuid, other.uuid])),
    );
    // both pages come from the cache: the write raised no version
    expect(row(await incidentPage(), alert.uuid).title).toBe(alert.title);
    expect(row(await alertsPage(), other.uuid).title).toBe(other.title);

    // an update of the alert (the triggers on): both pages are built again
    await db().update(alerts).set({ priority: 'low' }).where(eq(alerts.id, alert.uuid));
    expect(row(await incidentPage(), alert.uuid)).toMatchObject({ title: 'Renamed unseen', priority: 'low' });
    if (other.uuid !== alert.uuid) {
      await db().update(alerts).set({ priority: 'low' }).where(eq(alerts.id, other.uuid));
    }
    expect(row(await alertsPage(), other.uuid).title).toBe('Renamed unseen');

    // a tag added to the alert alone (its tags row only)
    const [tag] = await db()
      .insert(alertTagNames)
      .values({ systemId: aliceSystem, name: 'cache-check', color: 'red' })
      .returning();
    await db().insert(alertTags).values({ alertId: alert.uuid, tagId: tag!.id, position: 9 });
    expect(row(await incidentPage(), alert.uuid).tags).toContainEqual({ name: 'cache-check', color: 'red' });
    // the tag's colour, shared by every alert of the system that carries it
    await db().update(alertTagNames).set({ color: 'blue' }).where(eq(alertTagNames.id, tag!.id));
    expect(row(await incidentPage(), alert.uuid).tags).toContainEqual({ name: 'cache-check', color: 'blue' });

    // a tag row moved to another alert leaves this one
    await db()
      .update(alertTags)
      .set({ alertId: bobAlert })
      .where(and(eq(alertTags.alertId, alert.uuid), eq(alertTags.tagId, tag!.id)));
    expect(row(await incidentPage(), alert.uuid).tags.map((t) => t.name)).not.toContain('cache-check');

    // the names shown beside the alert: its response team and its system
    const [team] = await db()
      .select()
      .from(responseTeams)
      .where(eq(responseTeams.systemId, aliceSystem))
      .limit(1);
    await db().update(alerts).set({ responseTeamId: team!.id }).where(eq(alerts.id, alert.uuid));
    expect(row(await incidentPage(), alert.uuid).response_team).toEqual({ id: team!.id, name: team!.name });
    await db()
      .update(responseTeams)
      .set({ name: 'Night shift (renamed)' })
      .where(eq(responseTeams.id, team!.id));
    expect(row(await incidentPage(), alert.uuid).response_team?.name).toBe('Night shift (renamed)');
    const [system] = await db().select().from(systems).where(eq(systems.id, aliceSystem));
    await db().update(systems).set({ fullName: 'Renamed system' }).where(eq(systems.id, aliceSystem));
    try {
      expect(row(await incidentPage(), alert.uuid).system.full_name).toBe('Renamed system');
    } finally {
      await db().update(systems).set({ fullName: system!.fullName }).where(eq(systems.id, aliceSystem));
    }

    // deleted alerts leave the page and its total
    const total = (await incidentPage()).total;
    await db().delete(alerts).where(eq(alerts.id, alert.uuid));
    const after = await incidentPage();
    expect(after.total).toBe(total - 1);
    expect(after.results.map((a) => a.uuid)).not.toContain(alert.uuid);
  });

  it('keeps one tenant’s cached page from another', async () => {
    expect((await call('alice', 'GET', inc(aliceKey, 'alerts/?page=1'))).statusCode).toBe(200);
    expect((await call('alice', 'GET', inc(aliceKey, 'alerts/?page=1'))).statusCode).toBe(200);
    expect((await call('bob', 'GET', inc(aliceKey, 'alerts/?page=1'))).statusCode).toBe(404);
    const own = AlertPageSchema.parse((await call('bob', 'GET', '/api/v0/soc/alerts/?page_size=50')).json());
    expect(own.total).toBe(3);
    expect(own.results.every((a) => a.system.id === bobSystem)).toBe(true);
    const cut = AlertPageSchema.parse(
      (await call('bob', 'GET', `/api/v0/soc/alerts/?system__in=${aliceSystem}`)).json(),
    );
    expect(cut).toMatchObject({ total: 0, results: [] });
  });
});

describe('bulk actions', () => {
  it('changes nothing when one alert of the batch belongs to another tenant', async () => {
    const page = AlertPageSchema.parse(
      (await call('alice', 'GET', inc(aliceKey, 'alerts/?page_size=5'))).json(),
    );
    const ids = page.results.map((a) => a.uuid);
    const before = await ctx.database.db
      .select({ id: alerts.id, status: alerts.status, state: alerts.state })
      .from(alerts)
      .where(inArray(alerts.id, ids));
    const res = await call('alice', 'POST', '/api/v0/soc/alerts/bulk/', {
      alerts: [...ids, bobAlert],
      action: 'close',
      classification: 'false_positive',
      classification_details: 'test',
    });
    expect(res.statusCode).toBe(404);
    const after = await ctx.database.db
      .select({ id: alerts.id, status: alerts.status, state: alerts.state })
      .from(alerts)
      .where(inArray(alerts.id, ids));
    expect(after.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      before.sort((x, y) => x.id.localeCompare(y.id)),
    );

    const ok = await call('alice', 'POST', '/api/v0/soc/alerts/bulk/', {
      alerts: ids,
      action: 'close',
      classification: 'false_positive',
      classification_details: 'scanner of the IT team',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Answer>().updated).toBe(5);
    const closed = await ctx.database.db
      .select({ status: alerts.status, state: alerts.state })
      .from(alerts)
      .where(inArray(alerts.id, ids));
    for (const row of closed) expect(row).toEqual({ status: 'closed', state: 'false_positive' });
  });

  it('applies to whole groups and validates the payload', async () => {
    const alert = await firstAlert(aliceKey);
    const res = await call('alice', 'POST', '/api/v0/soc/alerts/bulk/', {
      groups: [alert.group],
      action: 'take_in_work',
    });
    expect(res.statusCode).toBe(200);
    const inGroup = await ctx.database.db
      .select({ status: alerts.status })
      .from(alerts)
      .where(eq(alerts.groupNo, alert.group!));
    expect(res.json<Answer>().updated).toBe(inGroup.length);
    for (const row of inGroup) expect(row.status).toBe('in_progress');
    const noClass = await call('alice', 'POST', '/api/v0/soc/alerts/bulk/', {
      alerts: [alert.uuid],
      action: 'close',
    });
    expect(noClass.statusCode).toBe(400);
    expect(noClass.json<Answer>().classification).toBeDefined();
    const foreignIssue = await call('alice', 'POST', '/api/v0/soc/alerts/bulk/', {
      alerts: [alert.uuid],
      action: 'attach',
      issue: bobKey,
    });
    expect(foreignIssue.statusCode).toBe(404);
  });
});

describe('identified IOCs', () => {
  it('lets analysts set IOCs whose values suit their types; customers may not', async () => {
    const url = inc(aliceKey, 'iocs/');
    const iocs = [
      { ioc: '203.0.113.9', ioc_type: 'ipv4', category: ['C2'] },
      { ioc: 'update-1a2b.example.net', ioc_type: 'fqdn', category: ['C2'] },
      { ioc: 'a'.repeat(64), ioc_type: 'file', category: ['malware'] },
    ];
    const bad = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: bearer(tokens.analyst!),
      payload: { iocs: [...iocs, { ioc: '999.1.1.1', ioc_type: 'ipv4' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toMatch(/valid IPv4/);
    const customer = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: bearer(tokens.alice!),
      payload: { iocs },
    });
    expect(customer.statusCode).toBe(403);
    const ok = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: bearer(tokens.analyst!),
      payload: { iocs },
    });
    expect(ok.statusCode).toBe(200);
    const card = (await call('alice', 'GET', inc(aliceKey))).json<{ observed_iocs: unknown[] }>();
    expect(card.observed_iocs).toEqual(iocs);
  });
});

describe('alert counts', () => {
  it('keeps the incidents’ alert totals when alerts are attached elsewhere or deleted', async () => {
    const db = ctx.database.db;
    const total = async (key: number) =>
      AlertPageSchema.parse((await call('alice', 'GET', inc(key, 'alerts/?page_size=1'))).json()).total;
    const [from, to] = [await total(aliceKey), await total(other.key)];
    expect(to).toBe(0);
    const page = AlertPageSchema.parse(
      (await call('alice', 'GET', inc(aliceKey, 'alerts/?page=2&page_size=3'))).json(),
    );
    const moved = page.results.map((a) => a.uuid);
    const res = await call('alice', 'POST', '/api/v0/soc/alerts/bulk/', {
      alerts: moved,
      action: 'attach',
      issue: other.key,
    });
    expect(res.statusCode).toBe(200);
    expect([await total(aliceKey), await total(other.key)]).toEqual([from - 3, to + 3]);
    await db.delete(alerts).where(eq(alerts.id, moved[0]!));
    expect(await total(other.key)).toBe(to + 2);
    // deleting an incident leaves its alerts ungrouped (and does not fail on the counts)
    await db.delete(incidents).where(eq(incidents.id, other.id));
    const left = await db
      .select({ incidentId: alerts.incidentId })
      .from(alerts)
      .where(inArray(alerts.id, moved.slice(1)));
    expect(left).toEqual([{ incidentId: null }, { incidentId: null }]);
  });
});

describe('tags and response teams', () => {
  it('sets tags with colours, suggests them and validates names and colours', async () => {
    const alert = await firstAlert(aliceKey);
    const url = `/api/v0/soc/alerts/${alert.uuid}/`;
    const res = await call('alice', 'PATCH', url, {
      tags: [
        { name: 'vip-host', color: 'gold' },
        { name: ' Needs follow-up ', color: '#13c2c2' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const detail = res.json<AlertDetail>();
    expect(detail.tags).toEqual([
      { name: 'vip-host', color: 'gold' },
      { name: 'Needs follow-up', color: '#13c2c2' },
    ]);
    const suggestions = await call('alice', 'GET', '/api/v0/soc/tags/?limit=5&q=follow');
    expect(suggestions.json<Answer>().results).toEqual([{ name: 'Needs follow-up', color: '#13c2c2' }]);
    // bob's system does not see alice's tag
    expect((await call('bob', 'GET', '/api/v0/soc/tags/?q=follow')).json<Answer>().results).toEqual([]);

    for (const tags of [
      [{ name: '', color: 'red' }],
      [{ name: 'a', color: 'javascript' }],
      [{ name: 'x'.repeat(51), color: 'red' }],
      [{ name: '<b>', color: 'red' }],
      [
        { name: 'dup', color: 'red' },
        { name: 'DUP', color: 'blue' },
      ],
    ]) {
      const bad = await call('alice', 'PATCH', url, { tags });
      expect(bad.statusCode, JSON.stringify(tags)).toBe(400);
    }
    const cleared = await call('alice', 'PATCH', url, { tags: [] });
    expect(cleared.json<Answer>().tags).toEqual([]);
    expect(await ctx.database.db.select().from(alertTags).where(eq(alertTags.alertId, alert.uuid))).toEqual(
      [],
    );
  });

  it('sets a response team of the alert’s own system only', async () => {
    const alert = await firstAlert(aliceKey);
    const url = `/api/v0/soc/alerts/${alert.uuid}/`;
    const teams = await call('alice', 'GET', '/api/v0/soc/response_teams/');
    const list = teams.json<Answer>().results as { id: number; name: string }[];
    // the teams built for her system, not bob's
    expect(list.map((t) => t.id).sort((x, y) => x - y)).toEqual(aliceTeams);
    const [foreignTeam] = await ctx.database.db
      .select()
      .from(responseTeams)
      .where(eq(responseTeams.systemId, bobSystem))
      .limit(1);
    const bad = await call('alice', 'PATCH', url, { response_team: { id: foreignTeam!.id } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Answer>().response_team).toBeDefined();
    const ok = await call('alice', 'PATCH', url, { response_team: { id: list[0]!.id } });
    expect(ok.json<Answer>().response_team).toEqual(list[0]);
    const cleared = await call('alice', 'PATCH', url, { response_team: null });
    expect(cleared.json<Answer>().response_team).toBeNull();
    expect((await call('alice', 'PATCH', url, {})).statusCode).toBe(400);
  });
});

describe('link templates', () => {
  it('offers templates with the alert’s values and renders http(s) links', async () => {
    const page = AlertPageSchema.parse((await call('alice', 'GET', inc(aliceKey, 'alerts/?page=2'))).json());
    // alerts whose events hold an address (every other built one) get the built template with
    // it; others no template at all
    let offered: { alert: Alert; value: string } | undefined;
    for (const candidate of page.results) {
      const res = await call('alice', 'GET', `/api/v0/alerts/${candidate.uuid}/available_links_templates/`);
      expect(res.statusCode).toBe(200);
      const templates = res.json<Answer>().results;
      const [row] = await ctx.database.db
        .select({ events: alerts.events })
        .from(alerts)
        .where(eq(alerts.id, candidate.uuid));
      const addresses = row!.events.flatMap((e) => (e.dst_ip ? [e.dst_ip] : []));
      if (!addresses.length) {
        expect(templates, candidate.title).toEqual([]);
        continue;
      }
      expect(templates.find((t) => t.id === lookup.id)?.values).toEqual(addresses);
      offered ??= { alert: candidate, value: addresses[0]! };
    }
    expect(offered).toBeDefined();
    const { alert, value } = offered!;
    const link = await call(
      'alice',
      'GET',
      `/api/v0/alerts/${alert.uuid}/link/?template=${lookup.id}&value=${encodeURIComponent(value)}`,
    );
    expect(link.statusCode).toBe(200);
    expect(link.json<Answer>().url).toBe(lookup.url.replace('{value}', value));
    const evil = await call(
      'alice',
      'GET',
      `/api/v0/alerts/${alert.uuid}/link/?template=${lookup.id}&value=evil.example`,
    );
    expect(evil.statusCode).toBe(400);
  });

  it('refuses javascript: templates on creation and when rendering a stored one', async () => {
    for (const url_template of [
      'javascript:alert({value})',
      'data:text/html,{value}',
      'https://x.example/',
    ]) {
      const res = await call('analyst', 'POST', '/api/v0/alerts/links_templates/', {
        name: 'bad',
        field: 'host',
        url_template,
      });
      expect(res.statusCode, url_template).toBe(400);
      expect(res.json<Answer>().url_template).toBeDefined();
    }
    expect(
      (
        await call('alice', 'POST', '/api/v0/alerts/links_templates/', {
          name: 'x',
          field: 'host',
          url_template: 'https://x.example/{value}',
        })
      ).statusCode,
    ).toBe(403);
    const created = await call('analyst', 'POST', '/api/v0/alerts/links_templates/', {
      name: 'Host lookup',
      field: 'host',
      url_template: 'https://cmdb.example/hosts/{value}',
    });
    expect(created.statusCode).toBe(201);
    const [stored] = await ctx.database.db
      .insert(linkTemplates)
      .values({ name: 'legacy', field: 'host', urlTemplate: '{value}' })
      .returning();
    const alert = await firstAlert(aliceKey);
    await ctx.database.db
      .update(alerts)
      .set({
        events: [
          {
            id: 'e1',
            parent: null,
            dt: 0,
            host: 'javascript:alert(1)',
            user: 'u',
            process: 'p',
            pid: 1,
            cmdline: '',
          },
        ],
      })
      .where(eq(alerts.id, alert.uuid));
    const res = await call('alice', 'GET', `/api/v0/alerts/${alert.uuid}/link/?template=${stored!.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json<Answer>().non_field_errors[0]).toMatch(/http/);
  });
});
