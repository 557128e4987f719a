import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '@soc/contracts';
import { audit } from '../../lib/audit.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildCustomer,
  buildDocument,
  buildIncident,
  buildSystem,
} from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
let ownKey: number;
let otherKey: number;
let mineId: number;

/** Built accounts: `own` and `other` are customers of two systems, `analyst` one of the SOC's. */
const users = {} as Record<'own' | 'other' | 'analyst', BuiltUser>;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const db = ctx.database.db;
  const mine = await buildSystem(ctx);
  mineId = mine.id;
  const theirs = await buildSystem(ctx);
  users.own = await buildCustomer(ctx, [mine.id]);
  users.other = await buildCustomer(ctx, [theirs.id]);
  users.analyst = await buildAnalyst(ctx);
  for (const [name, user] of Object.entries(users)) tokens[name] = await user.login();
  ownKey = (await buildIncident(ctx, mine.id)).key;
  otherKey = (await buildIncident(ctx, theirs.id)).key;
  // an analyst's change on the customer's system, the system's on the other, and the customer's comment with a
  // user agent that a spreadsheet would run
  await audit(db, {
    userId: users.analyst.id,
    action: 'incident.update',
    objectType: 'incident',
    objectId: ownKey,
    ip: '10.1.2.3',
    userAgent: 'analyst-workstation/1.0',
  });
  await audit(db, {
    userId: null,
    action: 'incident.update',
    objectType: 'incident',
    objectId: otherKey,
    ip: '10.9.9.9',
  });
  await audit(db, {
    userId: users.own.id,
    action: 'incident.comment',
    objectType: 'incident',
    objectId: ownKey,
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
    const res = await list('own', 'page_size=50');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<AuditListResponse>();
    const objects = page.results.filter((r) => r.object_type === 'incident').map((r) => r.object_id);
    expect(objects).toContain(String(ownKey));
    expect(objects).not.toContain(String(otherKey));
    // the customer's own sign-in is theirs
    expect(
      page.results.some((r) => r.action === 'auth.login' && r.user?.username === users.own.username),
    ).toBe(true);
    expect(page.results.some((r) => r.user?.username === users.other.username)).toBe(false);
    const ids = page.results.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by action, object, address, time and search; pages; refuses unknown filters', async () => {
    const byAction = (await list('own', 'action__in=incident.update')).json<AuditListResponse>();
    expect(byAction.results.map((r) => r.object_id)).toEqual([String(ownKey)]);
    const byIp = (await list('analyst', 'ip=10.9.')).json<AuditListResponse>();
    expect(byIp.results.map((r) => r.object_id)).toEqual([String(otherKey)]);
    const byObject = (
      await list('analyst', `object_type__in=incident&object_id=${otherKey}`)
    ).json<AuditListResponse>();
    expect(byObject.total).toBe(1);
    const future = Date.now() + 3_600_000;
    expect((await list('own', `at__gte=${future}`)).json<AuditListResponse>().total).toBe(0);
    const search = (await list('own', 'search=LOGIN')).json<AuditListResponse>();
    expect(search.total).toBeGreaterThan(0);
    expect(search.results.every((r) => r.action.includes('login'))).toBe(true);
    const paged = (await list('analyst', 'page_size=1&page=2')).json<AuditListResponse>();
    expect(paged.results).toHaveLength(1);
    expect(paged.previous).toContain('page=1');
    expect((await list('own', 'colour=red')).statusCode).toBe(400);
  });

  it('exports the same entries as CSV: BOM, the language’s header, formula-safe cells', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?action__in=incident.update&language=en',
      headers: bearer(tokens.own!),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\uFEFFTime (UTC),User,')).toBe(true);
    const rows: string[][] = parse(res.body.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1]![5]).toBe(String(ownKey));
    const own = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?action__in=incident.comment&language=en',
      headers: bearer(tokens.own!),
    });
    const ownRows: string[][] = parse(own.body.slice(1));
    expect(ownRows[1]![6]).toBe('10.20.30.40');
    expect(ownRows[1]![7]).toBe('\'=HYPERLINK("http://x")');
    const ru = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?language=ru',
      headers: bearer(tokens.other!),
    });
    expect(ru.body.startsWith('\uFEFFВремя (UTC),Пользователь,')).toBe(true);
    expect(ru.body).not.toContain(`,incident,${ownKey},`);
  });
});

describe('the provider staff in a customer audit log (issue 25, item 18)', () => {
  it('names the staff by name and role but never shows a customer their address or user agent', async () => {
    const page = (await list('own', 'action__in=incident.update,incident.comment')).json<AuditListResponse>();
    const staff = page.results.find((r) => r.action === 'incident.update');
    expect(staff).toMatchObject({
      ip: '',
      user_agent: '',
      user: { username: users.analyst.username, role: 'analyst' },
    });
    expect(page.results.find((r) => r.action === 'incident.comment')).toMatchObject({
      ip: '10.20.30.40',
      user_agent: '=HYPERLINK("http://x")',
      user: { username: users.own.username },
    });
    // sign-ins of the customer's own users keep their addresses
    const logins = (await list('own', 'action__in=auth.login')).json<AuditListResponse>();
    expect(logins.results.length).toBeGreaterThan(0);
    expect(logins.results.every((r) => r.ip !== '')).toBe(true);
    expect(JSON.stringify(page)).not.toContain('10.1.2.3');
    expect(JSON.stringify(page)).not.toContain('analyst-workstation');
  });

  it('finds no staff entry by the prefix of its hidden address', async () => {
    expect((await list('own', 'ip=10.1.')).json<AuditListResponse>().total).toBe(0);
    expect((await list('own', 'ip=10.20.')).json<AuditListResponse>().total).toBe(1);
  });

  it('keeps staff addresses out of the customer CSV', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?language=en',
      headers: bearer(tokens.own!),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('10.1.2.3');
    expect(res.body).not.toContain('analyst-workstation');
    expect(res.body).toContain('10.20.30.40');
  });

  it('shows analysts every address and user agent', async () => {
    const page = (
      await list('analyst', `action__in=incident.update&object_id=${ownKey}`)
    ).json<AuditListResponse>();
    expect(page.results[0]).toMatchObject({ ip: '10.1.2.3', user_agent: 'analyst-workstation/1.0' });
    expect((await list('analyst', 'ip=10.1.2.')).json<AuditListResponse>().total).toBe(1);
  });
});

describe('audit subjects by name (issue 28)', () => {
  it('names users, incidents and documents; a deleted subject has no name', async () => {
    const db = ctx.database.db;
    const document = await buildDocument(ctx);
    const incident = await buildIncident(ctx, mineId, { summary: 'Brute force on the VPN' });
    const named = await buildCustomer(ctx, [mineId], { firstName: 'Anna', lastName: 'Petrova' });
    const subjects: [string, string | number][] = [
      ['user', named.id],
      ['incident', incident.key],
      ['document', document.id],
      ['user', 999_999],
      ['document', 'not-a-number'],
    ];
    for (const [objectType, objectId] of subjects)
      await audit(db, { userId: users.analyst.id, action: 'test.subject', objectType, objectId, ip: '' });
    const page = (await list('analyst', 'action__in=test.subject')).json<AuditListResponse>();
    const names = page.results.map((r) => [r.object_type, r.object_name]).reverse();
    expect(names).toEqual([
      ['user', 'Anna Petrova'],
      ['incident', 'Brute force on the VPN'],
      ['document', document.title],
      ['user', null],
      ['document', null],
    ]);
    // the customer sees the names of their own system's subjects
    const own = (await list('own', 'action__in=test.subject')).json<AuditListResponse>();
    expect(own.results.find((r) => r.object_type === 'incident')?.object_name).toBe('Brute force on the VPN');
  });
});

describe('the audit CSV and the list separators of every locale (issue 37, item 6)', () => {
  it('quotes a user agent holding `;` or a tab and neutralises a formula after it', async () => {
    await audit(ctx.database.db, {
      userId: users.analyst.id,
      action: 'test.csv_split',
      objectType: 'incident',
      objectId: ownKey,
      ip: '10.1.2.4',
      userAgent: 'atk2;=1+1;\t+2',
    });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit/csv/?action__in=test.csv_split&language=en',
      headers: bearer(tokens.analyst!),
    });
    expect(res.statusCode, res.body).toBe(200);
    const line = res.body.split('\n')[1]!;
    expect(line.endsWith(`,"atk2;'=1+1;'\t'+2"`)).toBe(true);
    for (const part of line.split(/[;\t]/)) expect(part).not.toMatch(/^[=+\-@]/);
  });
});
