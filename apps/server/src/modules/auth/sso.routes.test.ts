import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EXTERNAL_LOGIN_MESSAGES } from '@soc/contracts';
import { testConfig } from '../../config.ts';
import { auditLog, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext, lastSmsCode } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer } from '../../test/builders.ts';

const SECRET = 'proxy-shared-secret-0123456789';

let bySecret: TestContext;
let byAddress: TestContext;
/** Relies on the proxy's own second factor (EXTERNAL_LOGIN_MFA=idp). */
let idpMfa: TestContext;
const PHONE = '+79000000204';
const EMAIL = 'sso.customer@built.example';
/** Built accounts of each context: customers, and a customer with an SMS second factor. */
let signedIn: BuiltUser;
let otherBrowser: BuiltUser;
let withSms: BuiltUser;
let idpSms: BuiltUser;
let temporary: BuiltUser;
beforeAll(async () => {
  bySecret = await createTestContext({
    incidents: 0,
    config: {
      publicUrl: 'https://portal.example',
      sso: {
        ...testConfig().sso,
        header: 'x-remote-user',
        sharedSecret: SECRET,
        secretHeader: 'x-sso-secret',
      },
    },
  });
  byAddress = await createTestContext({
    incidents: 0,
    config: {
      sso: { ...testConfig().sso, header: 'x-remote-email', trustedProxies: ['10.9.9.9'], match: 'email' },
    },
  });
  idpMfa = await createTestContext({
    incidents: 0,
    config: {
      sso: { ...testConfig().sso, header: 'x-remote-user', trustedProxies: ['10.9.9.9'] },
      externalLoginMfa: 'idp',
    },
  });
  signedIn = await buildCustomer(bySecret);
  otherBrowser = await buildCustomer(bySecret);
  withSms = await buildCustomer(bySecret, [], { mfaPhone: PHONE });
  await buildCustomer(byAddress, [], { email: EMAIL });
  idpSms = await buildCustomer(idpMfa, [], { mfaPhone: PHONE });
  temporary = await buildCustomer(idpMfa);
}, 90_000);
afterAll(async () => {
  await bySecret.close();
  await byAddress.close();
  await idpMfa.close();
});

type Injected = Awaited<ReturnType<TestContext['app']['inject']>>;
const loginCookieOf = (res: Injected): string => {
  const set = res.cookies.find((c) => c.name === 'soc_login');
  return set ? `soc_login=${set.value}` : '';
};

/** The proxy signs `user` in; the browser follows to the exchange with `cookie` (its own by default). */
async function ssoSignIn(ctx: TestContext, user: string, cookie?: (own: string) => string) {
  const viaSecret = ctx === bySecret;
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/v0/auth/sso/',
    headers: viaSecret ? { 'x-remote-user': user, 'x-sso-secret': SECRET } : { 'x-remote-user': user },
    remoteAddress: '10.9.9.9',
  });
  const ticket = landing(res.headers.location).searchParams.get('ticket');
  expect(ticket).toBeTruthy();
  const own = loginCookieOf(res);
  const sent = cookie ? cookie(own) : own;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v0/auth/token/ticket/',
    payload: { ticket },
    headers: sent ? { cookie: sent } : {},
  });
}

const landing = (location: unknown) => new URL(String(location), 'http://portal.test');

describe('SSO through a trusted reverse proxy', () => {
  it('signs in the user named by the proxy and hands the web app a ticket for SSO tokens', async () => {
    const res = await bySecret.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/?next=/incidents',
      headers: {
        'x-remote-user': signedIn.username.toUpperCase(),
        'x-sso-secret': SECRET,
        'user-agent': 'sso-agent',
      },
    });
    expect(res.statusCode).toBe(302);
    const target = landing(res.headers.location);
    expect(target.pathname).toBe('/auth/callback');
    expect(target.searchParams.get('next')).toBe('/incidents');
    const tokens = await bySecret.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/ticket/',
      payload: { ticket: target.searchParams.get('ticket') },
      headers: { cookie: loginCookieOf(res) },
    });
    const body = tokens.json<{ access: string; token_type: string }>();
    expect(body.token_type).toBe('SSO');
    const me = await bySecret.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: { authorization: `Bearer ${body.access}` },
    });
    expect(me.json<{ username: string }>().username).toBe(signedIn.username);
    const audit = await bySecret.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.userAgent, 'sso-agent'));
    expect(audit.map((a) => [a.action, (a.details as { method?: string }).method])).toContainEqual([
      'auth.login',
      'sso',
    ]);
  });

  it('ignores the identity header without the right secret', async () => {
    for (const headers of [
      { 'x-remote-user': signedIn.username },
      { 'x-remote-user': signedIn.username, 'x-sso-secret': 'wrong' },
    ]) {
      const res = await bySecret.app.inject({ method: 'GET', url: '/api/v0/auth/sso/', headers });
      const target = landing(res.headers.location);
      expect(target.searchParams.get('error')).toBe('sso_failed');
      expect(target.searchParams.has('ticket')).toBe(false);
    }
  });

  it('refuses an unknown user', async () => {
    const res = await bySecret.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/',
      headers: { 'x-remote-user': 'nobody', 'x-sso-secret': SECRET },
    });
    expect(landing(res.headers.location).searchParams.get('error')).toBe('no_account');
  });

  it('trusts a configured proxy address and matches by e-mail', async () => {
    const ok = await byAddress.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/',
      headers: { 'x-remote-email': EMAIL.toUpperCase() },
      remoteAddress: '10.9.9.9',
    });
    expect(landing(ok.headers.location).searchParams.get('ticket')).toBeTruthy();
    const elsewhere = await byAddress.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/',
      headers: { 'x-remote-email': EMAIL, 'x-forwarded-for': '10.9.9.9' },
      remoteAddress: '10.9.9.8',
    });
    expect(landing(elsewhere.headers.location).searchParams.get('error')).toBe('sso_failed');
  });

  it('binds the ticket to the browser with a Secure, HttpOnly, SameSite=Lax cookie under an https PUBLIC_URL', async () => {
    const res = await bySecret.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/',
      headers: { 'x-remote-user': signedIn.username, 'x-sso-secret': SECRET },
    });
    expect(res.cookies.find((c) => c.name === 'soc_login')).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
      path: '/api/v0/auth/',
    });
  });

  it("refuses a ticket exchanged without the browser's cookie or with another browser's", async () => {
    const other = loginCookieOf(
      await bySecret.app.inject({
        method: 'GET',
        url: '/api/v0/auth/sso/',
        headers: { 'x-remote-user': otherBrowser.username, 'x-sso-secret': SECRET },
      }),
    );
    for (const cookie of ['', other]) {
      const res = await ssoSignIn(bySecret, signedIn.username, () => cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: EXTERNAL_LOGIN_MESSAGES.otherBrowser });
      if (cookie) expect(res.cookies.find((c) => c.name === 'soc_login')?.maxAge).toBe(0);
    }
    expect((await ssoSignIn(bySecret, signedIn.username)).statusCode).toBe(200);
  });

  it('asks a user with a portal second factor for its code (EXTERNAL_LOGIN_MFA=portal, the default)', async () => {
    const res = await ssoSignIn(bySecret, withSms.username);
    expect(res.statusCode).toBe(200);
    const pending = res.json<{ mfa_token: string; token_type: string }>();
    expect(pending).toMatchObject({ method: 'sms', token_type: 'SSO' });
    expect(pending).not.toHaveProperty('access');
    const otp = await lastSmsCode(bySecret, PHONE);
    const wrong = await bySecret.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/mfa/obtain/',
      payload: { mfa_token: pending.mfa_token, otp: otp === '000000' ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const tokens = await bySecret.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/mfa/obtain/',
      payload: { mfa_token: pending.mfa_token, otp },
    });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json()).toHaveProperty('access');
    const pendingAudit = await bySecret.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login'));
    expect(pendingAudit.map((a) => a.details)).toContainEqual({ method: 'sso', second_factor: 'pending' });
  });

  it('relies on the proxy for the second factor with EXTERNAL_LOGIN_MFA=idp', async () => {
    const res = await ssoSignIn(idpMfa, idpSms.username);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'SSO' });
    expect(res.json()).toHaveProperty('access');
  });

  it('ends a temporary password still to be changed instead of locking the SSO session on it', async () => {
    const { db } = idpMfa.database;
    await db
      .update(users)
      .set({ temporaryPasswordExpiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(users.id, temporary.id));
    const res = await ssoSignIn(idpMfa, temporary.username);
    expect(res.statusCode, res.body).toBe(200);
    const { access } = res.json<{ access: string }>();
    const systems = await idpMfa.app.inject({ url: '/api/v0/soc/systems/', headers: bearer(access) });
    expect(systems.statusCode, systems.body).toBe(200);
    const me = await idpMfa.app.inject({ url: '/api/v0/auth/user/', headers: bearer(access) });
    expect(me.json()).toMatchObject({ must_change_password: false });
    // the administrator's password no longer signs in
    const byPassword = await idpMfa.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: temporary.username, password: BUILT_PASSWORD },
    });
    expect(byPassword.statusCode).toBe(401);
    const entries = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.temporary_password_void'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ objectType: 'user', details: { method: 'sso' } });
  });

  it('tells the web app that SSO is on', async () => {
    const res = await bySecret.app.inject({ method: 'GET', url: '/api/v0/portal/config/' });
    expect(res.json()).toMatchObject({ sso_enabled: true });
  });
});
