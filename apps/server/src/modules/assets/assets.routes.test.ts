import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Asset,
  AssetChoices,
  AssetIncidentListResponse,
  AssetListResponse,
  SoftwareListResponse,
} from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import { cmdbAssets, systems } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/cmdb${url}`, headers: bearer(tokens[user]!) });
const list = async (user: string, query = '') => {
  const res = await get(user, `/assets/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AssetListResponse>();
};
let bobsAsset: string;
/** The asset of alice's system with the most incidents. */
let busiest: { cmdb_id: string; n: number };

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 60 });
  for (const user of ['alice', 'bob', 'analyst']) tokens[user] = (await ctx.login(user)).access;
  const [bob] = await ctx.database.db
    .select({ cmdbId: cmdbAssets.cmdbId })
    .from(cmdbAssets)
    .innerJoin(systems, eq(systems.id, cmdbAssets.systemId))
    .where(and(eq(systems.isId, 'IS-0002'), eq(cmdbAssets.name, 'dc01')));
  bobsAsset = bob!.cmdbId;
  [busiest] = (await queryRows<{ cmdb_id: string; n: number }>(
    ctx.database.db,
    sql`SELECT s.cmdb_id, count(*)::int AS n FROM incident_snapshots s JOIN systems y ON y.id = s.system_id
        WHERE y.is_id = 'IS-0001' GROUP BY s.cmdb_id ORDER BY n DESC, s.cmdb_id LIMIT 1`,
  )) as [{ cmdb_id: string; n: number }];
});
afterAll(async () => ctx?.close());

describe('GET /cmdb/assets/', () => {
  it('lists only the customer’s own assets, paged', async () => {
    const page = await list('alice', '?page_size=10');
    expect(page.results).toHaveLength(10);
    expect(page.total).toBeGreaterThan(10);
    expect(page.next).toContain('page=2');
    expect(new Set(page.results.map((a) => a.system.is_id))).toEqual(new Set(['IS-0001']));
    const analyst = await list('analyst', '?page_size=1');
    expect(analyst.total).toBeGreaterThan(page.total);
  });

  it('searches name, IP address and FQDN', async () => {
    const [dc] = (await list('alice', '?search=dc01')).results;
    expect(dc!.name).toBe('dc01');
    expect((await list('alice', `?search=${dc!.ip_address}`)).results.map((a) => a.cmdb_id)).toContain(
      dc!.cmdb_id,
    );
    expect(
      (await list('alice', `?search=${encodeURIComponent(dc!.fqdn.toUpperCase())}`)).results[0]!.cmdb_id,
    ).toBe(dc!.cmdb_id);
    expect((await list('alice', '?search=%25')).total).toBe(0);
  });

  it('filters by type, OS, system, criticality and last seen', async () => {
    const servers = await list('analyst', '?asset_type__in=server&page_size=200');
    expect(servers.results.every((a) => a.asset_type === 'server')).toBe(true);
    const os = 'Windows Server 2019';
    const byOs = await list('alice', `?os__in=${encodeURIComponent(os)}`);
    expect(byOs.total).toBeGreaterThan(0);
    expect(byOs.results.every((a) => a.os === os)).toBe(true);
    const critical = await list('alice', '?criticality__in=critical,high&page_size=200');
    expect(critical.results.every((a) => ['critical', 'high'].includes(a.criticality))).toBe(true);
    const all = await list('alice', '?page_size=200');
    const cut = all.results.map((a) => a.last_seen).sort((a, b) => a - b)[Math.floor(all.total / 2)]!;
    const recent = await list('alice', `?last_seen__gte=${cut}&page_size=200`);
    expect(recent.results.every((a) => a.last_seen >= cut)).toBe(true);
    const old = await list('alice', `?last_seen__lte=${cut - 1}&page_size=200`);
    expect(recent.total + old.total).toBe(all.total);
    // another tenant's system as a filter yields nothing
    const [other] = await ctx.database.db.select().from(systems).where(eq(systems.isId, 'IS-0002'));
    expect((await list('alice', `?system__in=${other!.id}`)).total).toBe(0);
    expect((await get('alice', '?asset_type__in=toaster')).statusCode).toBe(404);
    expect((await get('alice', '/assets/?asset_type__in=toaster')).statusCode).toBe(400);
  });

  it('sorts by name and by last seen', async () => {
    const byName = (await list('alice', '?ordering=-name&page_size=200')).results.map((a) => a.name);
    expect(byName).toEqual([...byName].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const seen = (await list('alice', '?ordering=-last_seen&page_size=200')).results.map((a) => a.last_seen);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });

  it('offers the filter choices of the caller’s assets', async () => {
    const res = await get('alice', '/assets/choices/');
    const choices = res.json<AssetChoices>();
    expect(choices.asset_types).toContain('server');
    expect(choices.os).toContain('Windows Server 2019');
  });
});

describe('GET /cmdb/assets/{cmdb_id}/…', () => {
  it('answers the asset and 404 for another tenant’s one', async () => {
    const res = await get('bob', `/assets/${bobsAsset}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Asset>().name).toBe('dc01');
    expect((await get('alice', `/assets/${bobsAsset}/`)).statusCode).toBe(404);
    expect((await get('alice', `/assets/${bobsAsset}/incidents/`)).statusCode).toBe(404);
    expect((await get('alice', `/assets/${bobsAsset}/software/`)).statusCode).toBe(404);
    expect((await get('analyst', `/assets/${bobsAsset}/software/`)).statusCode).toBe(200);
  });

  it('pages the asset’s incidents by limit and offset, newest first', async () => {
    expect(busiest.n).toBeGreaterThan(3);
    const url = (q: string) => `/assets/${busiest.cmdb_id}/incidents/${q}`;
    const all = (await get('alice', url(''))).json<AssetIncidentListResponse>();
    expect(all.total).toBe(busiest.n);
    expect(all.results).toHaveLength(Math.min(15, busiest.n));
    const first = (await get('alice', url('?limit=3&offset=0'))).json<AssetIncidentListResponse>();
    expect(first.results).toHaveLength(3);
    expect(first.next).toContain('offset=3');
    const created = all.results.map((i) => i.created);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const second = (await get('alice', url('?limit=3&offset=3'))).json<AssetIncidentListResponse>();
    expect(second.results.map((i) => i.key)).toEqual(all.results.slice(3, 6).map((i) => i.key));
    expect((await get('alice', url('?limit=101'))).statusCode).toBe(400);
  });

  it('pages installed software 40 at a time by name, with a count and search', async () => {
    const [server] = await queryRows<{ cmdb_id: string; n: number }>(
      ctx.database.db,
      sql`SELECT a.cmdb_id, count(*)::int AS n FROM asset_software s JOIN cmdb_assets a ON a.id = s.asset_id
          JOIN systems y ON y.id = a.system_id WHERE y.is_id = 'IS-0001'
          GROUP BY a.cmdb_id ORDER BY n DESC LIMIT 1`,
    );
    expect(server!.n).toBeGreaterThan(99);
    const count = (
      await get('alice', `/assets/${server!.cmdb_id}/software/?limit=100`)
    ).json<SoftwareListResponse>();
    expect(count.total).toBe(server!.n);
    const page = (
      await get('alice', `/assets/${server!.cmdb_id}/software/?limit=40&offset=40`)
    ).json<SoftwareListResponse>();
    expect(page.results).toHaveLength(40);
    expect(page.results.map((s) => s.name)).toEqual(count.results.slice(40, 80).map((s) => s.name));
    const item = page.results[0]!;
    expect(Object.keys(item).sort()).toEqual(['id', 'install_time', 'name', 'vendor', 'version']);
    expect(typeof item.vendor.name).toBe('string');
    expect(typeof item.install_time).toBe('number');
    const found = (
      await get('alice', `/assets/${server!.cmdb_id}/software/?search=kb`)
    ).json<SoftwareListResponse>();
    expect(found.total).toBeGreaterThan(0);
    expect(found.results.every((s) => /kb/i.test(s.name))).toBe(true);
  });
});
