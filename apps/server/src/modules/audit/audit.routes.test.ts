import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '@soc/contracts';
import { incidents, systems, users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
let aliceKey: number;
let bobKey: number;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 30 });
  for (const u of ['alice', 'bob', 'analyst']) tokens[u] = (await ctx.login(u)).access;
  const db = ctx.database.db;
  const keyOf = async (isId: string) => {
    const [row] = await db
      .select({ key: incidents.key })
      .from(incidents)
      .innerJoin(systems, eq(systems.id, incidents.systemId))
      .where(eq(systems.isId, isId))
      .limit(1);
    return row!.key;
  };
  aliceKey = await keyOf('IS-0001');
  bobKey = await keyOf('IS-0002');
  const idOf = async (username: string) =>
    (await db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0]!.id;
  // an analyst's change on alice's system, the system's on bob's, and alice's own comment with a
  // user agent that a spreadsheet would run
  await audit(db, {
    userId: await idOf('analyst'),
    action: 'incident.update',
    objectType: 'incident',
    objectId: aliceKey,
    ip: '10.1.2.3',
    userAgent: 'analyst-workstation/1.0',
  });
  await audit(db, {
    userId: null,
    action: 'incident.update',
    objectType: 'incident',
    objectId: bobKey,
    ip: '10.9.9.9',
  });
  await audit(db, {
    userId: await idOf('alice'),
    action: 'incident.comment',
    objectType: 'incident',
    objectId: aliceKey,
    ip: '10.20.30.40',
    userAgent: '=HYPERLINK("http://x")',
  });
});
afterAll(async () => {
  await ctx.close();
});

const list = (user: string, query = '') =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/audit/?${query}`, headers: bearer(tokens[user]!) });

describe('GET /api/v0/audit/', () => {
  it('shows a customer the entries of their own systems only, newest first', async () => {
    const res = await list('alice', 'page_size=50');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<AuditListResponse>();
    const objects = page.results.filter((r) => r.object_type === 'incident').map((r) => r.object_id);
    expect(objects).toContain(String(aliceKey));
    expect(objects).not.toContain(String(bobKey));
    // alice's own sign-in is hers
    expect(page.results.some((r) => r.action === 'auth.login' && r.user?.username === 'alice')).toBe(true);
    expect(page.results.some((r) => r.user?.username === 'bob')).toBe(false);
    const ids = page.results.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by action, object, address, time and search; pages; refuses unknown filters', async () => {
    const byAction = (await list('alice', 'action__in=incident.update')).json<AuditListResponse>();
    expect(byAction.results.map((r) => r.object_id)).toEqual([String(aliceKey)]);
    const byIp = (await list('analyst', 'ip=10.9.')).json<AuditListResponse>();
    expect(byIp.results.map((r) => r.object_id)).toEqual([String(bobKey)]);
    const byObject = (
      await list('analyst', `object_type__in=incident&object_id=${bobKey}`)
    ).json<AuditListResponse>();
    expect(byObject.total).toBe(1);
    const future = Date.now() + 3_600_000;
    expect((await list('alice', `at__gte=${future}`)).json<AuditListResponse>().total).toBe(0);
    const search = (await list('alice', 'search=LOGIN')).json<AuditListResponse>();
    expect(search.total).toBeGreaterThan(0);
    expect(search.results.every((r) => r.action.includes('login'))).toBe(true);
    const paged = (await list('analyst', 'page_size=1&page=2')).json<AuditListResponse>();
    expect(paged.results).toHaveLength(1);
    expect(paged.previous).toContain('page=1');
    expect((await list('alice', 'colour=red')).statusCode).toBe(400);
  });

  it('exports the same entries as CSV: BOM, the language’s header, formula-safe cells', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?action__in=incident.update&language=en',
      headers: bearer(tokens.alice!),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\uFEFFTime (UTC),User,')).toBe(true);
    const rows: string[][] = parse(res.body.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1]![5]).toBe(String(aliceKey));
    const own = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?action__in=incident.comment&language=en',
      headers: bearer(tokens.alice!),
    });
    const ownRows: string[][] = parse(own.body.slice(1));
    expect(ownRows[1]![6]).toBe('10.20.30.40');
    expect(ownRows[1]![7]).toBe('\'=HYPERLINK("http://x")');
    const ru = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?language=ru',
      headers: bearer(tokens.bob!),
    });
    expect(ru.body.startsWith('\uFEFFВремя (UTC),Пользователь,')).toBe(true);
    expect(ru.body).not.toContain(`,incident,${aliceKey},`);
  });
});

describe('the provider staff in a customer audit log (issue 25, item 18)', () => {
  it('names the staff by name and role but never shows a customer their address or user agent', async () => {
    const page = (
      await list('alice', 'action__in=incident.update,incident.comment')
    ).json<AuditListResponse>();
    const staff = page.results.find((r) => r.action === 'incident.update');
    expect(staff).toMatchObject({ ip: '', user_agent: '', user: { username: 'analyst', role: 'analyst' } });
    expect(page.results.find((r) => r.action === 'incident.comment')).toMatchObject({
      ip: '10.20.30.40',
      user_agent: '=HYPERLINK("http://x")',
      user: { username: 'alice' },
    });
    // sign-ins of the customer's own users keep their addresses
    const logins = (await list('alice', 'action__in=auth.login')).json<AuditListResponse>();
    expect(logins.results.length).toBeGreaterThan(0);
    expect(logins.results.every((r) => r.ip !== '')).toBe(true);
    expect(JSON.stringify(page)).not.toContain('10.1.2.3');
    expect(JSON.stringify(page)).not.toContain('analyst-workstation');
  });

  it('finds no staff entry by the prefix of its hidden address', async () => {
    expect((await list('alice', 'ip=10.1.')).json<AuditListResponse>().total).toBe(0);
    expect((await list('alice', 'ip=10.20.')).json<AuditListResponse>().total).toBe(1);
  });

  it('keeps staff addresses out of the customer CSV', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?language=en',
      headers: bearer(tokens.alice!),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('10.1.2.3');
    expect(res.body).not.toContain('analyst-workstation');
    expect(res.body).toContain('10.20.30.40');
  });

  it('shows analysts every address and user agent', async () => {
    const page = (
      await list('analyst', `action__in=incident.update&object_id=${aliceKey}`)
    ).json<AuditListResponse>();
    expect(page.results[0]).toMatchObject({ ip: '10.1.2.3', user_agent: 'analyst-workstation/1.0' });
    expect((await list('analyst', 'ip=10.1.2.')).json<AuditListResponse>().total).toBe(1);
  });
});
