import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { BUILT_PASSWORD, buildCustomer } from '../../test/builders.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx.close());

/** A customer of no system, built for one test; `fields` name them. */
const someone = (fields: { firstName?: string; lastName?: string } = {}) => buildCustomer(ctx, [], fields);

const obtain = (payload: unknown, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v0/auth/token/obtain/',
    payload: payload as object,
    headers: { 'accept-language': 'en' },
    remoteAddress,
  });

describe('POST /auth/token/obtain/', () => {
  it('issues an access and a refresh token for valid credentials, username case-insensitive', async () => {
    const { username } = await someone();
    const res = await obtain({ username: username.toUpperCase(), password: BUILT_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access: string; refresh: string }>();
    expect(body.access.split('.')).toHaveLength(3);
    expect(body.refresh.length).toBeGreaterThan(30);
  });

  it('answers a wrong password exactly as an unknown user', async () => {
    const { username } = await someone();
    const wrong = await obtain({ username, password: 'not-the-password' }, '10.0.0.1');
    const unknown = await obtain({ username: 'nobody-here', password: 'not-the-password' }, '10.0.0.1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ detail: 'No active account found with the given credentials' });
  });

  it('refuses a deactivated account with the same answer', async () => {
    const { id, username } = await someone();
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, id));
    const res = await obtain({ username, password: BUILT_PASSWORD }, '10.0.0.2');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'No active account found with the given credentials' });
  });

  it('gives field errors in DRF shape for missing fields and wrong types', async () => {
    const missing = await obtain({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      username: ['This field is required'],
      password: ['This field is required'],
    });
    const wrongType = await obtain({ username: 12, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    expect(Object.keys(wrongType.json<object>()).sort()).toEqual(['password', 'username']);
  });

  it('rejects malformed JSON with 400, never 500', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      payload: '{"username": "nobody", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Malformed JSON body.'] });
  });

  it('rejects a JSON body over 1 MB with 413', async () => {
    const res = await obtain({ username: 'nobody', password: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Request body is too large.' });
  });

  it('locks a username after 10 failures in a row with 429 and Retry-After', async () => {
    const { username } = await someone();
    for (let i = 0; i < 10; i++) {
      // a different address each time: only the username counter can lock
      const res = await obtain({ username, password: `wrong-${i}` }, `10.1.0.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    const locked = await obtain({ username, password: BUILT_PASSWORD }, '10.1.1.1');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json<{ detail: string }>().detail).toMatch(/throttled/);
  });

  it('locks an address after 10 failures in a row, whatever the usernames', async () => {
    const { username } = await someone();
    for (let i = 0; i < 10; i++) {
      expect((await obtain({ username: `ghost${i}`, password: 'x' }, '10.2.0.1')).statusCode).toBe(401);
    }
    const locked = await obtain({ username, password: BUILT_PASSWORD }, '10.2.0.1');
    expect(locked.statusCode).toBe(429);
    const elsewhere = await obtain({ username, password: BUILT_PASSWORD }, '10.2.0.2');
    expect(elsewhere.statusCode).toBe(200);
  });

  it('resets the count on success', async () => {
    const { username } = await someone();
    for (let i = 0; i < 9; i++) await obtain({ username, password: 'x' }, '10.3.0.1');
    expect((await obtain({ username, password: BUILT_PASSWORD }, '10.3.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) await obtain({ username, password: 'x' }, '10.3.0.1');
    expect((await obtain({ username, password: BUILT_PASSWORD }, '10.3.0.1')).statusCode).toBe(200);
  });
});

describe('GET /auth/user/', () => {
  it('returns the signed-in user with permissions', async () => {
    const built = await someone({ firstName: 'Алиса', lastName: 'Морозова' });
    const access = await built.login();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/user/', headers: bearer(access) });
    expect(res.statusCode).toBe(200);
    const user = res.json<Record<string, unknown>>();
    expect(user).toMatchObject({ username: built.username, first_name: 'Алиса', last_name: 'Морозова' });
    expect(user.permissions).toContain('incidents.view');
    expect(user).not.toHaveProperty('password_hash');
    expect(user).not.toHaveProperty('passwordHash');
  });

  it('refuses a missing, malformed or forged token with 401', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/user/' });
    expect(none.statusCode).toBe(401);
    const garbage = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer('abc.def.ghi'),
    });
    expect(garbage.statusCode).toBe(401);
    const access = await (await someone()).login();
    const [h, p] = access.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/user/', headers: bearer(forged) });
    expect(res.statusCode).toBe(401);
  });

  it('stops accepting the token of a user deactivated meanwhile', async () => {
    const built = await someone();
    const access = await built.login();
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, built.id));
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/user/', headers: bearer(access) });
    expect(res.statusCode).toBe(401);
  });
});

describe('refresh and logout', () => {
  const refresh = (token: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/v0/auth/token/refresh/', payload: { refresh: token } });

  it('rotates the refresh token', async () => {
    const first = await ctx.login((await someone()).username, BUILT_PASSWORD);
    const res = await refresh(first.refresh);
    expect(res.statusCode).toBe(200);
    const second = res.json<{ access: string; refresh: string }>();
    expect(second.refresh).not.toBe(first.refresh);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer(second.access),
    });
    expect(me.statusCode).toBe(200);
  });

  it('revokes the whole session when a rotated token is presented again', async () => {
    const first = await ctx.login((await someone()).username, BUILT_PASSWORD);
    const second = (await refresh(first.refresh)).json<{ access: string; refresh: string }>();
    const reuse = await refresh(first.refresh);
    expect(reuse.statusCode).toBe(401);
    expect((await refresh(second.refresh)).statusCode).toBe(401);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer(second.access),
    });
    expect(me.statusCode).toBe(401);
  });

  it('refuses an unknown refresh token', async () => {
    expect((await refresh('x'.repeat(43))).statusCode).toBe(401);
  });

  it('ends the session on logout: refresh and access tokens stop working', async () => {
    const pair = await ctx.login((await someone()).username, BUILT_PASSWORD);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/logout/',
      payload: { refresh: pair.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect((await refresh(pair.refresh)).statusCode).toBe(401);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer(pair.access),
    });
    expect(me.statusCode).toBe(401);
  });
});

describe('PUT /auth/password_change/', () => {
  const change = (access: string, payload: object) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/auth/password_change/',
      headers: { ...bearer(access), 'accept-language': 'en' },
      payload,
    });

  it('applies every rule of product §A5', async () => {
    const access = await (await someone()).login();
    const short = await change(access, {
      old_password: BUILT_PASSWORD,
      password: 'abc12',
      confirmed_password: 'abc12',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ password: ['Minimum password length is 9'] });
    const numeric = await change(access, {
      old_password: BUILT_PASSWORD,
      password: '1234567890',
      confirmed_password: '1234567890',
    });
    expect(numeric.json()).toEqual({ password: ['Password should be not entirely numeric'] });
    const mismatch = await change(access, {
      old_password: BUILT_PASSWORD,
      password: 'new-password-1',
      confirmed_password: 'new-password-2',
    });
    expect(mismatch.json()).toEqual({ confirmed_password: ['Must match'] });
    const missing = await change(access, {});
    expect(Object.keys(missing.json<object>()).sort()).toEqual([
      'confirmed_password',
      'old_password',
      'password',
    ]);
    const wrongOld = await change(access, {
      old_password: 'not-my-password',
      password: 'new-password-1',
      confirmed_password: 'new-password-1',
    });
    expect(wrongOld.statusCode).toBe(400);
    expect(wrongOld.json()).toEqual({
      old_password: ['Your old password was entered incorrectly. Please enter it again.'],
    });
  });

  it('changes the password and ends every session, this one too (issue 25)', async () => {
    const { username } = await someone();
    const other = await ctx.login(username, BUILT_PASSWORD);
    const mine = await ctx.login(username, BUILT_PASSWORD);
    const res = await change(mine.access, {
      old_password: BUILT_PASSWORD,
      password: 'Brand-new-pass-1',
      confirmed_password: 'Brand-new-pass-1',
    });
    expect(res.statusCode).toBe(200);
    await expect(ctx.login(username, BUILT_PASSWORD)).rejects.toThrow(/401/);
    await ctx.login(username, 'Brand-new-pass-1');
    const otherMe = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer(other.access),
    });
    expect(otherMe.statusCode).toBe(401);
    const myMe = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer(mine.access),
    });
    expect(myMe.statusCode).toBe(401);
  });

  it('requires sign-in', async () => {
    const res = await ctx.app.inject({ method: 'PUT', url: '/api/v0/auth/password_change/', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('audit', () => {
  it('records sign-ins and failures without secrets', async () => {
    const rows = await ctx.database.db.query.auditLog.findMany();
    const actions = new Set(rows.map((r) => r.action));
    expect(actions).toContain('auth.login');
    expect(actions).toContain('auth.login_failed');
    expect(actions).toContain('auth.refresh_reuse');
    expect(actions).toContain('auth.logout');
    expect(rows.filter((r) => r.action === 'auth.login').every((r) => r.ip !== '')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(BUILT_PASSWORD);
  });
});
