import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInvited } from '@soc/contracts';
import { TEMPORARY_PASSWORD_MESSAGES } from '@soc/contracts';
import { auditLog, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { BUILT_PASSWORD, buildCustomer, buildUser } from '../../test/builders.ts';
import { runAdminCommand } from '../admin/index.ts';

let ctx: TestContext;
let adminAccess = '';
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  adminAccess = await (await buildUser(ctx, { role: 'admin' })).login();
});
afterAll(() => ctx.close());

const api = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object, lang?: string) =>
  ctx.app.inject({
    method,
    url: `/api/v0${url}`,
    headers: { ...bearer(token), ...(lang ? { 'accept-language': lang } : {}) },
    ...(payload ? { payload } : {}),
  });
const obtain = (username: string, password: string, lang = 'en') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v0/auth/token/obtain/',
    headers: { 'accept-language': lang },
    payload: { username, password },
  });
const OWN = 'Own-long-passphrase-for-me-2026';

async function invite(username: string): Promise<UserInvited> {
  const res = await api('POST', '/admin/users/', adminAccess, {
    username,
    email: `${username}@customer1.example`,
    systems: [],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UserInvited>();
}

describe('temporary passwords given by an administrator (issue 25, item 15)', () => {
  it('must be changed at the first sign-in: every other call answers 403 until then', async () => {
    const { temporary_password } = await invite('tempuser');
    const signIn = await obtain('tempuser', temporary_password);
    expect(signIn.statusCode).toBe(200);
    const { access, refresh, must_change_password } = signIn.json<{
      access: string;
      refresh: string;
      must_change_password?: boolean;
    }>();
    expect(must_change_password).toBe(true);

    const me = await api('GET', '/auth/user/', access);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'tempuser', must_change_password: true });
    for (const url of ['/soc/systems/', '/soc/incs/', '/auth/mfa/', '/auth/tokens/']) {
      const res = await api('GET', url, access, undefined, 'en');
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ detail: TEMPORARY_PASSWORD_MESSAGES.en.mustChange });
    }
    const ru = await api('GET', '/soc/systems/', access, undefined, 'ru');
    expect(ru.json()).toEqual({ detail: TEMPORARY_PASSWORD_MESSAGES.ru.mustChange });
    // a refreshed session is still held to it
    const refreshed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/refresh/',
      payload: { refresh },
    });
    expect(refreshed.json()).toMatchObject({ must_change_password: true });
    const access2 = refreshed.json<{ access: string }>().access;
    expect((await api('GET', '/soc/systems/', access2)).statusCode).toBe(403);

    const changed = await api('PUT', '/auth/password_change/', access2, {
      old_password: temporary_password,
      password: OWN,
      confirmed_password: OWN,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // the change ends every session, this one too; the new password signs in without the flag
    expect((await api('GET', '/auth/user/', access2)).statusCode).toBe(401);
    const own = await obtain('tempuser', OWN);
    expect(Object.keys(own.json<object>()).sort()).toEqual(['access', 'refresh']);
    const ownAccess = own.json<{ access: string }>().access;
    expect((await api('GET', '/soc/systems/', ownAccess)).statusCode).toBe(200);
    expect((await api('GET', '/auth/user/', ownAccess)).json()).toMatchObject({
      must_change_password: false,
    });
  });

  it('no longer signs in after 72 hours: the user is told to ask the administrator', async () => {
    const { temporary_password } = await invite('lateuser');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.username, 'lateuser'));
    const hours = (row!.temporaryPasswordExpiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
    await ctx.database.db
      .update(users)
      .set({ temporaryPasswordExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, row!.id));
    const en = await obtain('lateuser', temporary_password, 'en');
    expect(en.statusCode).toBe(401);
    expect(en.json()).toEqual({
      detail: TEMPORARY_PASSWORD_MESSAGES.en.expired,
      code: 'temporary_password_expired',
    });
    const ru = await obtain('lateuser', temporary_password, 'ru');
    expect(ru.json()).toMatchObject({ detail: TEMPORARY_PASSWORD_MESSAGES.ru.expired });
    // a wrong password still answers as any wrong password
    expect((await obtain('lateuser', 'wrong-password-x')).json()).toEqual({
      detail: 'No active account found with the given credentials',
    });
  });

  it('is given again by an administrator’s reset (API and CLI), which ends the sessions', async () => {
    const customer = await buildCustomer(ctx);
    const session = await customer.login();
    const reset = await api('POST', `/admin/users/${customer.id}/reset_password/`, adminAccess);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.headers['cache-control']).toBe('no-store');
    const { temporary_password } = reset.json<UserInvited>();
    expect((await api('GET', '/auth/user/', session)).statusCode).toBe(401);
    const signIn = await obtain(customer.username, temporary_password);
    expect(signIn.json()).toMatchObject({ must_change_password: true });
    expect((await api('GET', '/soc/systems/', signIn.json<{ access: string }>().access)).statusCode).toBe(
      403,
    );
    const entries = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.password_reset'));
    expect(entries.at(-1)).toMatchObject({ objectType: 'user', objectId: String(customer.id) });
    expect(JSON.stringify(entries.at(-1)?.details)).not.toContain(temporary_password);

    const out = await runAdminCommand(['users', 'reset-password', customer.username], {
      db: ctx.database.db,
      config: ctx.config,
    });
    const cliPassword = /One-time password \(shown once, valid 72 hours\): (\S+)/.exec(out)![1]!;
    expect((await obtain(customer.username, temporary_password)).statusCode).toBe(401);
    expect((await obtain(customer.username, cliPassword)).json()).toMatchObject({
      must_change_password: true,
    });
  });

  it('is refused to non-administrators', async () => {
    const target = await buildCustomer(ctx);
    const access = await (await buildCustomer(ctx)).login();
    expect((await api('POST', `/admin/users/${target.id}/reset_password/`, access)).statusCode).toBe(403);
    expect(await obtain(target.username, BUILT_PASSWORD).then((r) => r.statusCode)).toBe(200);
  });
});
