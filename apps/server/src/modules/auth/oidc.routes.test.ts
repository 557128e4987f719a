import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import * as client from 'openid-client';
import { EXTERNAL_LOGIN_MESSAGES } from '@soc/contracts';
import { auditLog, userIdentities, users } from '../../db/schema/index.ts';
import { NO_PASSWORD } from '../../lib/passwords.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext, lastSmsCode } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { buildCustomer } from '../../test/builders.ts';
import type { TestIdp } from '../../test/oidc-idp.ts';
import { signInAtIdp, startTestIdp } from '../../test/oidc-idp.ts';

const PORTAL = 'http://portal.test';
const callbackOf = (name: string) => `${PORTAL}/api/v0/auth/oidc/${name}/callback/`;
/** Where the tests themselves receive codes when they act as a client of the IdP. */
const TEST_REDIRECT = 'http://test-client.local/cb';

let idp: TestIdp;
let ctx: TestContext;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let signingKid: string;
/** A customer with a portal password, and one who signs in with a code sent to `SMS_PHONE`. */
let passwordUser: BuiltUser;
let smsUser: BuiltUser;
const SMS_PHONE = '+79000000104';

beforeAll(async () => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  signingKey = privateKey;
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  signingKid = 'test-key';
  idp = await startTestIdp({
    jwks: { keys: [jwk] },
    clients: [
      {
        client_id: 'portal',
        client_secret: 'portal-secret-portal-secret',
        redirect_uris: [callbackOf('corp'), TEST_REDIRECT],
      },
      {
        client_id: 'portal-auto',
        client_secret: 'portal-auto-secret-portal-auto',
        redirect_uris: [callbackOf('corp-auto')],
      },
      { client_id: 'other-app', client_secret: 'other-app-secret-other-app', redirect_uris: [TEST_REDIRECT] },
    ],
    accounts: {
      'idp-password-user': { email: 'Password.User@built.example' },
      'idp-unverified': { email: 'unverified.user@built.example', emailVerified: false },
      'idp-no-claim': { email: 'no-claim.user@built.example', emailVerified: null },
      'idp-erin': { email: 'Erin@customer1.example' },
      'idp-sms-user': { email: 'sms.user@built.example' },
      'idp-stranger': { email: 'stranger@elsewhere.example', name: 'Stan Stranger' },
      'idp-stranger-unverified': { email: 'unverified@elsewhere.example', emailVerified: false },
      'idp-stranger-no-claim': { email: 'no-claim@elsewhere.example', emailVerified: null },
    },
  });
  ctx = await createTestContext({
    incidents: 0,
    config: {
      publicUrl: PORTAL,
      oidcProviders: [
        {
          name: 'corp',
          issuer: idp.issuer,
          client_id: 'portal',
          client_secret: 'portal-secret-portal-secret',
          scope: 'openid email profile',
          match: 'email',
          auto_create: false,
          allow_http: true,
        },
        {
          name: 'corp-auto',
          issuer: idp.issuer,
          client_id: 'portal-auto',
          client_secret: 'portal-auto-secret-portal-auto',
          scope: 'openid email profile',
          match: 'email',
          auto_create: true,
          allow_http: true,
        },
      ],
    },
  });
  // an account without a portal password of its own (made through another provider): the only
  // kind that a provider may link by verified e-mail
  await ctx.database.db.insert(users).values({
    username: 'erin',
    email: 'erin@customer1.example',
    passwordHash: NO_PASSWORD,
    role: 'customer',
  });
  // accounts with a portal password, whose e-mails the IdP's accounts above carry
  passwordUser = await buildCustomer(ctx, [], { email: 'password.user@built.example' });
  await buildCustomer(ctx, [], { email: 'unverified.user@built.example' });
  await buildCustomer(ctx, [], { email: 'no-claim.user@built.example' });
  smsUser = await buildCustomer(ctx, [], { email: 'sms.user@built.example', mfaPhone: SMS_PHONE });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await idp.stop();
});

type Injected = Awaited<ReturnType<TestContext['app']['inject']>>;

/** The sign-in cookie that a response sets, as a `Cookie` header ('' when none is set). */
const loginCookieOf = (res: Injected): string => {
  const set = res.cookies.find((c) => c.name === 'soc_login');
  return set ? `soc_login=${set.value}` : '';
};

/**
 * Runs the portal's flow for `login` up to the redirect into the web app, in one browser: the
 * cookie set at the start comes back at the callback unless `callbackCookie` says otherwise.
 */
async function portalFlow(
  provider: string,
  login: string,
  next = '/incidents',
  callbackCookie?: (own: string) => string,
) {
  const start = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/auth/oidc/${provider}/start/?next=${next}`,
  });
  expect(start.statusCode).toBe(302);
  const cookie = loginCookieOf(start);
  const back = await signInAtIdp(idp.issuer, start.headers.location as string, login);
  expect(back.origin).toBe(PORTAL);
  const callback = await ctx.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { 'user-agent': 'oidc-test-agent', cookie: callbackCookie ? callbackCookie(cookie) : cookie },
  });
  expect(callback.statusCode).toBe(302);
  return { start, back, cookie, callback, landing: new URL(callback.headers.location as string, PORTAL) };
}

const exchange = (ticket: string, cookie: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v0/auth/token/ticket/',
    payload: { ticket },
    headers: cookie ? { cookie } : {},
  });

/** Signs `login` in through `provider` and returns the answer of the ticket exchange. */
async function signIn(provider: string, login: string) {
  const { landing, cookie } = await portalFlow(provider, login);
  const ticket = landing.searchParams.get('ticket');
  expect(ticket, landing.href).toBeTruthy();
  return exchange(ticket!, cookie);
}

const me = (authorization: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v0/auth/user/', headers: { authorization } });

/** An ID token issued by the IdP to `clientId`, obtained the way any relying party gets one. */
async function idTokenFor(clientId: string, secret: string, login: string): Promise<string> {
  const config = await client.discovery(
    new URL(idp.issuer),
    clientId,
    secret,
    client.ClientSecretBasic(secret),
    {
      execute: [client.allowInsecureRequests],
    },
  );
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: TEST_REDIRECT,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const back = await signInAtIdp(idp.issuer, url.href, login);
  const tokens = await client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  return tokens.id_token!;
}

describe('GET /auth/oidc_providers/', () => {
  it('lists the configured providers with client id and discovery URL', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc_providers/' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ results: unknown[] }>().results[0]).toEqual({
      client_id: 'portal',
      configuration_url: `${idp.issuer}/.well-known/openid-configuration`,
      name: 'corp',
    });
  });
});

describe('authorization code flow', () => {
  it('redirects to the IdP with PKCE (S256), state, nonce and the registered redirect URI', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/corp/start/' });
    const url = new URL(res.headers.location as string);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('client_id')).toBe('portal');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(callbackOf('corp'));
  });

  it('signs a known user in by verified e-mail: ticket, tokens, then OIDC calls', async () => {
    const { landing, cookie } = await portalFlow('corp', 'idp-erin');
    expect(landing.pathname).toBe('/auth/callback');
    expect(landing.searchParams.get('next')).toBe('/incidents');
    const ticket = landing.searchParams.get('ticket')!;
    const res = await exchange(ticket, cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access: string; refresh: string; token_type: string }>();
    expect(body.token_type).toBe('OIDC');
    const user = await me(`OIDC ${body.access}`);
    expect(user.statusCode).toBe(200);
    expect(user.json<{ username: string }>().username).toBe('erin');
    // the sign-in cookie is used once: the exchange clears it
    expect(res.cookies.find((c) => c.name === 'soc_login')).toMatchObject({ value: '', maxAge: 0 });
    // the ticket is single-use
    expect((await exchange(ticket, cookie)).statusCode).toBe(401);
    // the identity is linked for next time
    const links = await ctx.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.subject, 'idp-erin'));
    expect(links).toHaveLength(1);
    const audit = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.userAgent, 'oidc-test-agent'));
    expect(audit.map((a) => a.action)).toContain('auth.login');
  });

  it('refuses a replayed callback: the state is single-use', async () => {
    const { back, cookie } = await portalFlow('corp', 'idp-erin');
    const replay = await ctx.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie },
    });
    expect(new URL(replay.headers.location as string, PORTAL).searchParams.get('error')).toBe('oidc_failed');
  });

  it('refuses a callback with a forged state', async () => {
    const start = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/corp/start/' });
    const back = await signInAtIdp(idp.issuer, start.headers.location as string, 'idp-erin');
    back.searchParams.set('state', 'forged-state');
    const res = await ctx.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: loginCookieOf(start) },
    });
    const landing = new URL(res.headers.location as string, PORTAL);
    expect(landing.searchParams.get('error')).toBe('oidc_failed');
    expect(landing.searchParams.has('ticket')).toBe(false);
  });

  it('creates no account for an unknown identity unless configured', async () => {
    const before = (await ctx.database.db.select().from(users)).length;
    const { landing } = await portalFlow('corp', 'idp-stranger');
    expect(landing.searchParams.get('error')).toBe('no_account');
    expect(await ctx.database.db.select().from(users)).toHaveLength(before);
    const failures = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login_failed'));
    expect(failures.some((f) => (f.details as { reason?: string }).reason === 'no_account')).toBe(true);
  });

  it('creates a customer account where auto_create is on, with no password of its own', async () => {
    const res = await signIn('corp-auto', 'idp-stranger');
    const user = await me(`OIDC ${res.json<{ access: string }>().access}`);
    expect(user.json()).toMatchObject({ username: 'stranger', email: 'stranger@elsewhere.example' });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.username, 'stranger'));
    expect(row?.passwordHash).toBe(NO_PASSWORD);
  });

  it('has no SSO callback while SSO is not configured', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/sso/' })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown provider', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/nope/start/' })).statusCode).toBe(
      404,
    );
  });

  it('keeps the return path inside the portal', async () => {
    const { landing } = await portalFlow('corp', 'idp-erin', '//evil.example/x');
    expect(landing.searchParams.get('next')).toBe('/');
  });
});

describe('login CSRF: the flow and its ticket are bound to the browser that started it', () => {
  it('sets an HttpOnly, SameSite=Lax sign-in cookie for the auth routes only', async () => {
    const start = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/corp/start/' });
    const cookie = start.cookies.find((c) => c.name === 'soc_login');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v0/auth/' });
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    // PUBLIC_URL is http here: a Secure cookie would never come back
    expect(cookie?.secure).toBeUndefined();
  });

  it('refuses the callback without the cookie, and signs nobody in', async () => {
    const { landing, callback } = await portalFlow('corp', 'idp-erin', '/incidents', () => '');
    expect(landing.searchParams.get('error')).toBe('other_browser');
    expect(landing.searchParams.has('ticket')).toBe(false);
    expect(callback.cookies.find((c) => c.name === 'soc_login')?.maxAge).toBe(0);
  });

  it("refuses the callback with another browser's cookie (an attacker's link sent to a victim)", async () => {
    const victim = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/corp/start/' });
    const { landing } = await portalFlow('corp', 'idp-erin', '/incidents', () => loginCookieOf(victim));
    expect(landing.searchParams.get('error')).toBe('other_browser');
    expect(landing.searchParams.has('ticket')).toBe(false);
  });

  it('exchanges the ticket only with the cookie of the browser it was issued to', async () => {
    const other = loginCookieOf(
      await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/corp/start/' }),
    );
    for (const cookie of ['', other]) {
      const { landing } = await portalFlow('corp', 'idp-erin');
      const res = await exchange(landing.searchParams.get('ticket')!, cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: EXTERNAL_LOGIN_MESSAGES.otherBrowser });
      expect(res.json()).not.toHaveProperty('access');
    }
    const refused = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login_failed'));
    expect(refused.some((f) => (f.details as { reason?: string }).reason === 'other_browser')).toBe(true);
  });
});

describe('e-mail matching and account creation need a verified e-mail, never a local account', () => {
  const errorOf = async (provider: string, login: string) =>
    (await portalFlow(provider, login)).landing.searchParams.get('error');

  it('refuses an e-mail the provider marks unverified or does not mark at all', async () => {
    expect(await errorOf('corp', 'idp-unverified')).toBe('email_unverified');
    expect(await errorOf('corp', 'idp-no-claim')).toBe('email_unverified');
    const links = await ctx.database.db.select().from(userIdentities);
    expect(links.map((l) => l.subject)).not.toContain('idp-unverified');
    expect(links.map((l) => l.subject)).not.toContain('idp-no-claim');
  });

  it('creates no account from an unverified or unmarked e-mail', async () => {
    const before = (await ctx.database.db.select().from(users)).length;
    expect(await errorOf('corp-auto', 'idp-stranger-unverified')).toBe('email_unverified');
    expect(await errorOf('corp-auto', 'idp-stranger-no-claim')).toBe('email_unverified');
    expect(await ctx.database.db.select().from(users)).toHaveLength(before);
  });

  it('never links a verified e-mail to an account with a password, nor creates a second one', async () => {
    const before = (await ctx.database.db.select().from(users)).length;
    expect(await errorOf('corp', 'idp-password-user')).toBe('email_taken');
    expect(await errorOf('corp-auto', 'idp-password-user')).toBe('email_taken');
    expect(await ctx.database.db.select().from(users)).toHaveLength(before);
    const links = await ctx.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.subject, 'idp-password-user'));
    expect(links).toHaveLength(0);
    // the account keeps its own password sign-in
    expect(await passwordUser.login()).toBeTruthy();
  });

  it('lets no password sign in to an account made by a provider', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: 'erin', password: NO_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the portal second factor after an OIDC sign-in (EXTERNAL_LOGIN_MFA=portal, the default)', () => {
  it('answers the exchange with the pending sign-in of the password flow; the code gives tokens', async () => {
    await ctx.database.db
      .insert(userIdentities)
      .values({ userId: smsUser.id, issuer: idp.issuer, subject: 'idp-sms-user' })
      .onConflictDoNothing();
    const res = await signIn('corp', 'idp-sms-user');
    expect(res.statusCode).toBe(200);
    const pending = res.json<{ mfa_token: string; method: string; token_type: string }>();
    expect(pending).toMatchObject({ method: 'sms', token_type: 'OIDC' });
    expect(pending).not.toHaveProperty('access');
    const otp = await lastSmsCode(ctx, SMS_PHONE);
    const tokens = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/mfa/obtain/',
      payload: { mfa_token: pending.mfa_token, otp },
    });
    expect(tokens.statusCode).toBe(200);
    const user = await me(`OIDC ${tokens.json<{ access: string }>().access}`);
    expect(user.json<{ username: string }>().username).toBe(smsUser.username);
  });
});

describe('Authorization: OIDC <token> issued by the IdP', () => {
  it('accepts an ID token of the IdP for our client, for an identity linked by an earlier sign-in', async () => {
    await portalFlow('corp', 'idp-erin');
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-erin');
    const res = await me(`OIDC ${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ username: string }>().username).toBe('erin');
  });

  it('never signs an API call in to a local account by e-mail alone', async () => {
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-password-user');
    expect((await me(`OIDC ${token}`)).statusCode).toBe(401);
  });

  it('refuses a tampered token', async () => {
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-erin');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'idp-someone-else' })).toString('base64url');
    const res = await me(`OIDC ${header}.${forged}.${signature}`);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toContain('OIDC realm=');
    // a flipped signature byte fails as well
    const flipped = signature!.slice(0, -2) + (signature!.endsWith('AA') ? 'BB' : 'AA');
    expect((await me(`OIDC ${header}.${payload}.${flipped}`)).statusCode).toBe(401);
  });

  it('refuses a token issued to another client (wrong audience)', async () => {
    const token = await idTokenFor('other-app', 'other-app-secret-other-app', 'idp-erin');
    expect((await me(`OIDC ${token}`)).statusCode).toBe(401);
  });

  it('refuses an expired token signed with the IdP key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ email: 'erin@customer1.example', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: signingKid })
      .setIssuer(idp.issuer)
      .setAudience('portal')
      .setSubject('idp-erin')
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(signingKey);
    expect((await me(`OIDC ${expired}`)).statusCode).toBe(401);
    // the same token, still valid, passes: only the expiry made the difference
    const fresh = await new SignJWT({ email: 'erin@customer1.example', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: signingKid })
      .setIssuer(idp.issuer)
      .setAudience('portal')
      .setSubject('idp-erin')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(signingKey);
    expect((await me(`OIDC ${fresh}`)).statusCode).toBe(200);
  });

  it('refuses an IdP token under the Bearer scheme and a token of an unknown issuer', async () => {
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-erin');
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('http://127.0.0.1:1/')
      .setAudience('portal')
      .setSubject('idp-erin')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await me(`OIDC ${foreign}`)).statusCode).toBe(401);
  });
});
