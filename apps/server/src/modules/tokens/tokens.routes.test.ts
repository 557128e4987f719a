import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenCreated, ApiTokenPage, IncidentListResponse, SystemListResponse } from '@soc/contracts';
import { LOGIN_MAX_FAILURES, PERSONAL_TOKEN_MESSAGES } from '@soc/contracts';
import { auditLog, serviceTokens } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem, BuiltUser } from '../../test/builders.ts';
import {
  BUILT_PASSWORD,
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildSystem,
  buildUser,
} from '../../test/builders.ts';
import { WRONG_PASSWORD } from './tokens.service.ts';

let ctx: TestContext;
const sessions: Record<string, string> = {};

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  token: string,
  payload?: object,
) =>
  ctx.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

const DAY_MS = 86_400_000;

async function personalToken(user: string, body: object = { name: 'script' }): Promise<ApiTokenCreated> {
  const res = await call('POST', '/auth/tokens/', sessions[user]!, { password: BUILT_PASSWORD, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiTokenCreated>();
}

async function serviceToken(body: object): Promise<ApiTokenCreated> {
  const res = await call('POST', '/admin/service_tokens/', sessions.admin!, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiTokenCreated>();
}

/** The `token.revoke_all` audit entries about a user. */
const revokeAllEntries = (owner: number) =>
  ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'token.revoke_all'), eq(auditLog.objectId, String(owner))));

/** The accounts of the file, built in beforeAll; customer sees A, otherTenant B, twoSystems A and C. */
const built: Record<string, BuiltUser> = {};
const userId = (name: string) => built[name]!.id;
const login = (name: string, password = BUILT_PASSWORD) => ctx.login(built[name]!.username, password);
/** The systems' ids and is_ids. */
const sys: Record<'a' | 'b' | 'c', BuiltSystem> = {} as Record<'a' | 'b' | 'c', BuiltSystem>;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  for (const k of ['a', 'b', 'c'] as const) sys[k] = await buildSystem(ctx);
  const { a, b, c } = sys;
  Object.assign(built, {
    customer: await buildCustomer(ctx, [a.id]),
    otherTenant: await buildCustomer(ctx, [b.id]),
    twoSystems: await buildCustomer(ctx, [a.id, c.id]),
    lockedOut: await buildCustomer(ctx, [a.id]),
    passwordChanger: await buildCustomer(ctx, [a.id]),
    resetUser: await buildCustomer(ctx, [a.id]),
    analyst: await buildAnalyst(ctx),
    analyst2: await buildAnalyst(ctx),
    admin: await buildUser(ctx, { role: 'admin' }),
  });
  for (const user of ['customer', 'otherTenant', 'twoSystems', 'analyst', 'admin'])
    sessions[user] = await built[user]!.login();
  for (const system of [a, a, b, c]) await buildIncident(ctx, system.id);
});
afterAll(async () => ctx?.close());

describe('personal API tokens', () => {
  it('are shown once, listed without the secret, and read what their owner reads', async () => {
    const created = await personalToken('customer', { name: 'nightly export' });
    expect(created.token).toMatch(/^socp_[\w-]{40,}$/);
    expect(created.read_only).toBe(true);
    expect(created.token.startsWith(created.prefix)).toBe(true);

    const list = (await call('GET', '/auth/tokens/', sessions.customer!)).json<ApiTokenPage>();
    const shown = list.results.find((t) => t.id === created.id)!;
    expect(shown).toBeDefined();
    expect(JSON.stringify(list)).not.toContain(created.token);
    expect(shown.last_used_at).toBeNull();

    const res = await call('GET', '/soc/systems/', created.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SystemListResponse>().results.map((s) => s.is_id)).toEqual([sys.a.isId]);

    const after = (await call('GET', '/auth/tokens/', sessions.customer!)).json<ApiTokenPage>();
    expect(after.results.find((t) => t.id === created.id)!.last_used_at).not.toBeNull();
  });

  it('refuse changes: a personal token is read-only', async () => {
    const { token } = await personalToken('customer');
    const res = await call('POST', '/auth/tokens/', token, { name: 'another', password: BUILT_PASSWORD });
    expect(res.statusCode).toBe(403);
    const patch = await call('PATCH', '/soc/incs/1/', token, { priority: 'low' });
    expect(patch.statusCode).toBe(403);
  });

  it('may be narrowed to some of the owner’s systems, never to others', async () => {
    const narrowed = await personalToken('twoSystems', { name: 'only 3', systems: [sys.c.id] });
    const seen = (await call('GET', '/soc/systems/', narrowed.token)).json<SystemListResponse>();
    expect(seen.results.map((s) => s.is_id)).toEqual([sys.c.isId]);
    const foreign = await call('POST', '/auth/tokens/', sessions.twoSystems!, {
      name: 'x',
      password: BUILT_PASSWORD,
      systems: [sys.b.id],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toHaveProperty('systems');
  });

  it('stop working at once when revoked; another user cannot revoke them', async () => {
    const { id, token } = await personalToken('customer');
    expect((await call('GET', '/auth/user/', token)).statusCode).toBe(200);
    expect((await call('DELETE', `/auth/tokens/${id}/`, sessions.twoSystems!)).statusCode).toBe(404);
    expect((await call('DELETE', `/auth/tokens/${id}/`, sessions.customer!)).statusCode).toBe(204);
    const refused = await call('GET', '/auth/user/', token);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('Bearer');
  });

  it('refuses unknown and malformed tokens', async () => {
    expect((await call('GET', '/auth/user/', 'socp_unknown')).statusCode).toBe(401);
    expect((await call('GET', '/auth/user/', `socp_${'x'.repeat(43)}`)).statusCode).toBe(401);
  });
});

describe('personal API tokens: password, expiry, last use (issue 25)', () => {
  const create = (user: string, body: object, language = 'en') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/tokens/',
      headers: { ...bearer(sessions[user]!), 'accept-language': language },
      payload: body,
    });
  const storedToken = async (id: string) =>
    (await ctx.database.db.select().from(serviceTokens).where(eq(serviceTokens.id, id)))[0]!;

  it('need the current password: none is a field error, a wrong one a 403 in ru or en, audited', async () => {
    const other = userId('otherTenant');
    const missing = await create('otherTenant', { name: 'no password' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ password: [PERSONAL_TOKEN_MESSAGES.passwordRequired] });

    const wrongEn = await create('otherTenant', { name: 'guess', password: 'Not-Their-Password-1' });
    expect(wrongEn.statusCode).toBe(403);
    expect(wrongEn.json()).toEqual({ detail: WRONG_PASSWORD.en });
    const wrongRu = await create(
      'otherTenant',
      { name: 'guess', password: 'Not-Their-Password-1' },
      'ru-RU,ru;q=0.9',
    );
    expect(wrongRu.statusCode).toBe(403);
    expect(wrongRu.json()).toEqual({ detail: WRONG_PASSWORD.ru });

    const list = (await call('GET', '/auth/tokens/', sessions.otherTenant!)).json<ApiTokenPage>();
    expect(list.total).toBe(0);
    const denied = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'token.create_denied'), eq(auditLog.userId, other)));
    expect(denied).toHaveLength(2);
    expect(denied[0]).toMatchObject({ objectType: 'user', objectId: String(other) });
    expect(JSON.stringify(denied)).not.toContain('Not-Their-Password-1');

    expect((await create('otherTenant', { name: 'right', password: BUILT_PASSWORD })).statusCode).toBe(201);
  });

  it('count wrong passwords towards the sign-in lock: the 10th locks, then even the right one waits', async () => {
    const session = (await login('lockedOut')).access;
    const attempt = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/tokens/',
        headers: { ...bearer(session), 'accept-language': 'en' },
        // an address of its own, so that the lock of the address spares the other tests
        remoteAddress: '198.51.100.7',
        payload: { name: 'guess', password },
      });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++)
      expect((await attempt(`Wrong-guess-${i}`)).statusCode).toBe(403);
    const locked = await attempt(BUILT_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    await expect(login('lockedOut')).rejects.toThrow(/429/);
  });

  it('expire after 90 days unless told otherwise, at most after a year, and are refused once expired', async () => {
    const before = Date.now();
    const byDefault = await personalToken('customer', { name: 'default expiry' });
    const expires = Date.parse(byDefault.expires_at!);
    expect(expires).toBeGreaterThanOrEqual(before + 90 * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);

    const chosen = new Date(Date.now() + 30 * DAY_MS).toISOString();
    const month = await personalToken('customer', { name: 'a month', expires_at: chosen });
    expect(Date.parse(month.expires_at!)).toBe(Date.parse(chosen));

    const tooFar = await create('customer', {
      name: 'too long',
      password: BUILT_PASSWORD,
      expires_at: new Date(Date.now() + 366 * DAY_MS).toISOString(),
    });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json()).toEqual({ expires_at: [PERSONAL_TOKEN_MESSAGES.expiryTooFar] });
    const never = await create('customer', { name: 'for ever', password: BUILT_PASSWORD, expires_at: null });
    expect(never.statusCode).toBe(400);
    expect(never.json()).toHaveProperty('expires_at');
    // the database itself refuses a personal token without an expiry (migration 0027)
    const row = { userId: userId('customer'), name: 'x', prefix: 'socp_x', role: 'customer' as const };
    await expect(
      ctx.database.db.insert(serviceTokens).values({ ...row, kind: 'personal', tokenHash: 'no-expiry-1' }),
    ).rejects.toThrow();
    await ctx.database.db.insert(serviceTokens).values({ ...row, kind: 'service', tokenHash: 'no-expiry-2' });

    expect((await call('GET', '/auth/user/', month.token)).statusCode).toBe(200);
    await ctx.database.db
      .update(serviceTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(serviceTokens.id, month.id));
    const refused = await call('GET', '/auth/user/', month.token);
    expect(refused.statusCode).toBe(401);
    // an expired token is not listed as usable any more
    const list = (await call('GET', '/auth/tokens/', sessions.customer!)).json<ApiTokenPage>();
    expect(list.results.some((t) => t.id === month.id)).toBe(false);
  });

  it('record their last use at most once a minute, not on every request', async () => {
    const { id, token } = await personalToken('customer', { name: 'busy script' });
    expect((await call('GET', '/auth/user/', token)).statusCode).toBe(200);
    const first = (await storedToken(id)).lastUsedAt!;
    expect(first).not.toBeNull();
    expect((await call('GET', '/auth/user/', token)).statusCode).toBe(200);
    expect((await storedToken(id)).lastUsedAt).toEqual(first);

    const longAgo = new Date(Date.now() - 2 * 60_000);
    await ctx.database.db.update(serviceTokens).set({ lastUsedAt: longAgo }).where(eq(serviceTokens.id, id));
    expect((await call('GET', '/auth/user/', token)).statusCode).toBe(200);
    expect((await storedToken(id)).lastUsedAt!.getTime()).toBeGreaterThan(longAgo.getTime());
    const shown = (await call('GET', '/auth/tokens/', sessions.customer!)).json<ApiTokenPage>();
    expect(shown.results.find((t) => t.id === id)!.last_used_at).not.toBeNull();
  });

  it('end with every session of their owner on a password change; service tokens stay', async () => {
    const owner = userId('passwordChanger');
    const here = await login('passwordChanger');
    const elsewhere = await login('passwordChanger');
    sessions.passwordChanger = here.access;
    const personal = [
      await personalToken('passwordChanger', { name: 'one' }),
      await personalToken('passwordChanger', { name: 'two' }),
    ];
    const service = await serviceToken({ name: 'their integration', user_id: owner });
    for (const t of [...personal, service])
      expect((await call('GET', '/auth/user/', t.token)).statusCode).toBe(200);

    const changed = await call('PUT', '/auth/password_change/', here.access, {
      old_password: BUILT_PASSWORD,
      password: 'Harbour-Lantern-5821',
      confirmed_password: 'Harbour-Lantern-5821',
    });
    expect(changed.statusCode, changed.body).toBe(200);

    for (const t of personal) expect((await call('GET', '/auth/user/', t.token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/user/', here.access)).statusCode).toBe(401);
    expect((await call('GET', '/auth/user/', elsewhere.access)).statusCode).toBe(401);
    const refreshed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/refresh/',
      payload: { refresh: elsewhere.refresh },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await call('GET', '/auth/user/', service.token)).statusCode).toBe(200);

    const entries = await revokeAllEntries(owner);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      userId: owner,
      objectType: 'user',
      details: { reason: 'password_change', sessions: 2, personal_tokens: 2 },
    });
    await login('passwordChanger', 'Harbour-Lantern-5821');
  });

  it('end with every session of their owner on an administrator’s reset, audited once', async () => {
    const owner = userId('resetUser');
    sessions.resetUser = (await login('resetUser')).access;
    const personal = await personalToken('resetUser', { name: 'nightly' });
    expect((await call('GET', '/auth/user/', personal.token)).statusCode).toBe(200);

    const reset = await call('POST', `/admin/users/${owner}/reset_password/`, sessions.admin!);
    expect(reset.statusCode, reset.body).toBe(200);

    expect((await call('GET', '/auth/user/', personal.token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/user/', sessions.resetUser)).statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(serviceTokens).where(eq(serviceTokens.id, personal.id));
    expect(row!.revokedAt).not.toBeNull();
    const entries = await revokeAllEntries(owner);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      userId: userId('admin'),
      objectType: 'user',
      details: { reason: 'password_reset', sessions: 1, personal_tokens: 1 },
    });
  });
});

describe('service tokens', () => {
  it('act only within their systems: another system’s incident is a 404', async () => {
    const analyst = userId('analyst');
    const scoped = await serviceToken({ name: 'siem A', user_id: analyst, systems: [sys.a.id] });
    expect(scoped.role).toBe('analyst');
    const list = (await call('GET', '/soc/incs/?limit=40', scoped.token)).json<IncidentListResponse>();
    expect(list.total).toBeGreaterThan(0);
    const all = (await call('GET', '/soc/incs/?limit=40', sessions.analyst!)).json<IncidentListResponse>();
    const foreign = all.results.find((i) => i.system?.id !== sys.a.id)!;
    expect(foreign).toBeDefined();
    expect(list.results.every((i) => i.system?.id === sys.a.id)).toBe(true);
    expect((await call('GET', `/soc/incs/${foreign.key}/`, scoped.token)).statusCode).toBe(404);
    expect(
      (await call('PATCH', `/soc/incs/${foreign.key}/`, scoped.token, { priority: 'low' })).statusCode,
    ).toBe(404);
    const own = list.results[0]!;
    expect((await call('GET', `/soc/incs/${own.key}/`, scoped.token)).statusCode).toBe(200);
  });

  it('never act above their user’s role', async () => {
    const customer = userId('customer');
    const res = await call('POST', '/admin/service_tokens/', sessions.admin!, {
      name: 'too much',
      user_id: customer,
      role: 'analyst',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('role');
  });

  it('are refused at once when their user is deactivated, and work again when reactivated', async () => {
    const analyst2 = userId('analyst2');
    const { token } = await serviceToken({ name: 'soar', user_id: analyst2 });
    const session = (await login('analyst2')).access;
    expect((await call('GET', '/soc/incs/?limit=1', token)).statusCode).toBe(200);
    const off = await call('POST', `/admin/users/${analyst2}/deactivate/`, sessions.admin!);
    expect(off.statusCode, off.body).toBe(200);
    expect((await call('GET', '/soc/incs/?limit=1', token)).statusCode).toBe(401);
    expect((await call('GET', '/soc/incs/?limit=1', session)).statusCode).toBe(401);
    const on = await call('PATCH', `/admin/users/${analyst2}/`, sessions.admin!, { is_active: true });
    expect(on.statusCode, on.body).toBe(200);
    expect((await call('GET', '/soc/incs/?limit=1', token)).statusCode).toBe(200);
    // the sessions of a deactivated user stay ended
    expect((await call('GET', '/soc/incs/?limit=1', session)).statusCode).toBe(401);
  });

  it('are revoked by administrators and listed for them; customers may not manage them', async () => {
    const analyst = userId('analyst');
    const { id, token } = await serviceToken({ name: 'to revoke', user_id: analyst, read_only: true });
    const listed = (await call('GET', '/admin/service_tokens/', sessions.admin!)).json<ApiTokenPage>();
    expect(listed.results.some((t) => t.id === id)).toBe(true);
    expect((await call('GET', '/admin/service_tokens/', sessions.customer!)).statusCode).toBe(403);
    expect((await call('GET', '/admin/service_tokens/', sessions.analyst!)).statusCode).toBe(403);
    expect((await call('DELETE', `/admin/service_tokens/${id}/`, sessions.admin!)).statusCode).toBe(204);
    expect((await call('GET', '/soc/incs/?limit=1', token)).statusCode).toBe(401);
  });
});
