import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Asset,
  AssetChoices,
  AssetIncidentListResponse,
  AssetListResponse,
  SoftwareListResponse,
} from '@soc/contracts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildAsset,
  buildCustomer,
  buildIncident,
  buildSnapshot,
  buildSoftware,
  buildSystem,
} from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/cmdb${url}`, headers: bearer(tokens[user]!) });
const list = async (user: string, query = '') => {
  const res = await get(user, `/assets/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AssetListResponse>();
};
/** The customer's system (`own` sees it) and another tenant's (`other` sees it). */
let mine: BuiltSystem;
let theirs: BuiltSystem;
/** The other tenant's asset, named like one of the customer's. */
let othersAsset: string;
/** The customer's asset in the most incidents, and the one with the most software. */
let busiest: { cmdb_id: string; n: number };
let server: { cmdb_id: string; n: number };

const DAY = 86_400_000;
const OWN_ASSETS = 15;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  mine = await buildSystem(ctx);
  theirs = await buildSystem(ctx);
  const users = {
    own: await buildCustomer(ctx, [mine.id]),
    other: await buildCustomer(ctx, [theirs.id]),
    analyst: await buildAnalyst(ctx),
  };
  for (const [name, user] of Object.entries(users)) tokens[name] = await user.login();

  const now = Date.now();
  const dc = await buildAsset(ctx, mine.id, {
    name: 'dc01',
    os: 'Windows Server 2019',
    ipAddress: '10.20.30.40',
    fqdn: 'dc01.corp.test',
    criticality: 'critical',
  });
  const app = await buildAsset(ctx, mine.id, {
    name: 'app01',
    os: 'Ubuntu 22.04',
    lastSeenAt: new Date(now - DAY),
  });
  const types = ['workstation', 'server', 'network'] as const;
  const systemsOs = ['Windows 10', 'Ubuntu 22.04', 'Windows Server 2019'];
  const criticalities = ['low', 'medium', 'high', 'critical'] as const;
  for (let i = 1; i <= OWN_ASSETS - 2; i++) {
    await buildAsset(ctx, mine.id, {
      name: `ws-${String(i).padStart(2, '0')}`,
      assetType: types[i % 3],
      os: systemsOs[i % 3],
      ipAddress: `10.20.31.${i}`,
      criticality: criticalities[i % 4],
      lastSeenAt: new Date(now - i * DAY),
    });
  }
  const theirsDc = await buildAsset(ctx, theirs.id, { name: 'dc01', fqdn: 'dc01.other.test' });
  othersAsset = theirsDc.cmdbId;
  await buildSoftware(ctx, theirsDc.id, [{ name: 'Other tenant tool' }]);

  // dc01 was in 5 incidents, a day apart
  for (let i = 0; i < 5; i++) {
    const created = new Date(now - (i + 1) * DAY);
    const incident = await buildIncident(ctx, mine.id, { created });
    await buildSnapshot(ctx, incident.id, dc, { systemId: mine.id, createdAt: created });
  }
  busiest = { cmdb_id: dc.cmdbId, n: 5 };
  // app01 has 120 programs, 12 of them Windows updates (KB…)
  await buildSoftware(
    ctx,
    app.id,
    Array.from({ length: 120 }, (_, i) => ({
      name:
        i % 10 === 0 ? `Update KB50${String(i).padStart(5, '0')}` : `Program ${String(i).padStart(3, '0')}`,
      version: `1.${i}`,
      installTime: new Date(now - i * DAY),
    })),
  );
  server = { cmdb_id: app.cmdbId, n: 120 };
});
afterAll(async () => ctx?.close());

describe('GET /cmdb/assets/', () => {
  it('lists only the customer’s own assets, paged', async () => {
    const page = await list('own', '?page_size=10');
    expect(page.results).toHaveLength(10);
    expect(page.total).toBe(OWN_ASSETS);
    expect(page.next).toContain('page=2');
    expect(new Set(page.results.map((a) => a.system.is_id))).toEqual(new Set([mine.isId]));
    const analyst = await list('analyst', '?page_size=1');
    expect(analyst.total).toBeGreaterThan(page.total);
  });

  it('searches name, IP address and FQDN', async () => {
    const [dc] = (await list('own', '?search=dc01')).results;
    expect(dc!.name).toBe('dc01');
    expect((await list('own', `?search=${dc!.ip_address}`)).results.map((a) => a.cmdb_id)).toContain(
      dc!.cmdb_id,
    );
    expect(
      (await list('own', `?search=${encodeURIComponent(dc!.fqdn.toUpperCase())}`)).results[0]!.cmdb_id,
    ).toBe(dc!.cmdb_id);
    expect((await list('own', '?search=%25')).total).toBe(0);
  });

  it('filters by type, OS, system, criticality and last seen', async () => {
    const servers = await list('analyst', '?asset_type__in=server&page_size=200');
    expect(servers.results.every((a) => a.asset_type === 'server')).toBe(true);
    const os = 'Windows Server 2019';
    const byOs = await list('own', `?os__in=${encodeURIComponent(os)}`);
    expect(byOs.total).toBeGreaterThan(0);
    expect(byOs.results.every((a) => a.os === os)).toBe(true);
    const critical = await list('own', '?criticality__in=critical,high&page_size=200');
    expect(critical.results.every((a) => ['critical', 'high'].includes(a.criticality))).toBe(true);
    const all = await list('own', '?page_size=200');
    const cut = all.results.map((a) => a.last_seen).sort((a, b) => a - b)[Math.floor(all.total / 2)]!;
    const recent = await list('own', `?last_seen__gte=${cut}&page_size=200`);
    expect(recent.results.every((a) => a.last_seen >= cut)).toBe(true);
    const old = await list('own', `?last_seen__lte=${cut - 1}&page_size=200`);
    expect(recent.total + old.total).toBe(all.total);
    // another tenant's system as a filter yields nothing
    expect((await list('own', `?system__in=${theirs.id}`)).total).toBe(0);
    expect((await get('own', '?asset_type__in=toaster')).statusCode).toBe(404);
    expect((await get('own', '/assets/?asset_type__in=toaster')).statusCode).toBe(400);
  });

  it('sorts by name and by last seen', async () => {
    const byName = (await list('own', '?ordering=-name&page_size=200')).results.map((a) => a.name);
    expect(byName).toEqual([...byName].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const seen = (await list('own', '?ordering=-last_seen&page_size=200')).results.map((a) => a.last_seen);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });

  it('offers the filter choices of the caller’s assets', async () => {
    const res = await get('own', '/assets/choices/');
    const choices = res.json<AssetChoices>();
    expect(choices.asset_types).toContain('server');
    expect(choices.os).toContain('Windows Server 2019');
  });
});

describe('GET /cmdb/assets/{cmdb_id}/…', () => {
  it('answers the asset and 404 for another tenant’s one', async () => {
    const res = await get('other', `/assets/${othersAsset}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Asset>().name).toBe('dc01');
    expect((await get('own', `/assets/${othersAsset}/`)).statusCode).toBe(404);
    expect((await get('own', `/assets/${othersAsset}/incidents/`)).statusCode).toBe(404);
    expect((await get('own', `/assets/${othersAsset}/software/`)).statusCode).toBe(404);
    expect((await get('analyst', `/assets/${othersAsset}/software/`)).statusCode).toBe(200);
  });

  it('pages the asset’s incidents by limit and offset, newest first', async () => {
    expect(busiest.n).toBeGreaterThan(3);
    const url = (q: string) => `/assets/${busiest.cmdb_id}/incidents/${q}`;
    const all = (await get('own', url(''))).json<AssetIncidentListResponse>();
    expect(all.total).toBe(busiest.n);
    expect(all.results).toHaveLength(Math.min(15, busiest.n));
    const first = (await get('own', url('?limit=3&offset=0'))).json<AssetIncidentListResponse>();
    expect(first.results).toHaveLength(3);
    expect(first.next).toContain('offset=3');
    const created = all.results.map((i) => i.created);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const second = (await get('own', url('?limit=3&offset=3'))).json<AssetIncidentListResponse>();
    expect(second.results.map((i) => i.key)).toEqual(all.results.slice(3, 6).map((i) => i.key));
    expect((await get('own', url('?limit=101'))).statusCode).toBe(400);
  });

  it('pages installed software 40 at a time by name, with a count and search', async () => {
    const count = (
      await get('own', `/assets/${server.cmdb_id}/software/?limit=100`)
    ).json<SoftwareListResponse>();
    expect(count.total).toBe(server.n);
    const page = (
      await get('own', `/assets/${server.cmdb_id}/software/?limit=40&offset=40`)
    ).json<SoftwareListResponse>();
    expect(page.results).toHaveLength(40);
    expect(page.results.map((s) => s.name)).toEqual(count.results.slice(40, 80).map((s) => s.name));
    const item = page.results[0]!;
    expect(Object.keys(item).sort()).toEqual(['id', 'install_time', 'name', 'vendor', 'version']);
    expect(typeof item.vendor.name).toBe('string');
    expect(typeof item.install_time).toBe('number');
    const found = (
      await get('own', `/assets/${server.cmdb_id}/software/?search=kb`)
    ).json<SoftwareListResponse>();
    expect(found.total).toBe(12);
    expect(found.results.every((s) => /kb/i.test(s.name))).toBe(true);
  });
});
