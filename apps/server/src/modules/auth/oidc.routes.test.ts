import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import * as client from 'openid-client';
import { auditLog, userIdentities, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
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
      'idp-alice': { email: 'ALICE@customer1.example' },
      'idp-bob-unverified': { email: 'bob@customer2.example', emailVerified: false },
      'idp-stranger': { email: 'stranger@elsewhere.example', name: 'Stan Stranger' },
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
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await idp.stop();
});

/** Runs the portal's flow for `login` up to the redirect into the web app. */
async function portalFlow(provider: string, login: string, next = '/incidents') {
  const start = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/auth/oidc/${provider}/start/?next=${next}`,
  });
  expect(start.statusCode).toBe(302);
  const back = await signInAtIdp(idp.issuer, start.headers.location as string, login);
  expect(back.origin).toBe(PORTAL);
  const callback = await ctx.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { 'user-agent': 'oidc-test-agent' },
  });
  expect(callback.statusCode).toBe(302);
  return { start, back, landing: new URL(callback.headers.location as string, PORTAL) };
}

const exchange = (ticket: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/v0/auth/token/ticket/', payload: { ticket } });

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
    const { landing } = await portalFlow('corp', 'idp-alice');
    expect(landing.pathname).toBe('/auth/callback');
    expect(landing.searchParams.get('next')).toBe('/incidents');
    const ticket = landing.searchParams.get('ticket')!;
    const res = await exchange(ticket);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access: string; refresh: string; token_type: string }>();
    expect(body.token_type).toBe('OIDC');
    const user = await me(`OIDC ${body.access}`);
    expect(user.statusCode).toBe(200);
    expect(user.json<{ username: string }>().username).toBe('alice');
    // the ticket is single-use
    expect((await exchange(ticket)).statusCode).toBe(401);
    // the identity is linked for next time
    const links = await ctx.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.subject, 'idp-alice'));
    expect(links).toHaveLength(1);
    const audit = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.userAgent, 'oidc-test-agent'));
    expect(audit.map((a) => a.action)).toContain('auth.login');
  });

  it('refuses a replayed callback: the state is single-use', async () => {
    const { back } = await portalFlow('corp', 'idp-alice');
    const replay = await ctx.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(new URL(replay.headers.location as string, PORTAL).searchParams.get('error')).toBe('oidc_failed');
  });

  it('refuses a callback with a forged state', async () => {
    const start = await ctx.app.inject({ method: 'GET', url: '/api/v0/auth/oidc/corp/start/' });
    const back = await signInAtIdp(idp.issuer, start.headers.location as string, 'idp-alice');
    back.searchParams.set('state', 'forged-state');
    const res = await ctx.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    const landing = new URL(res.headers.location as string, PORTAL);
    expect(landing.searchParams.get('error')).toBe('oidc_failed');
    expect(landing.searchParams.has('ticket')).toBe(false);
  });

  it('creates no account for an unknown identity unless configured, and never matches an unverified e-mail', async () => {
    const before = (await ctx.database.db.select().from(users)).length;
    for (const login of ['idp-stranger', 'idp-bob-unverified']) {
      const { landing } = await portalFlow('corp', login);
      expect(landing.searchParams.get('error'), login).toBe('no_account');
    }
    expect(await ctx.database.db.select().from(users)).toHaveLength(before);
    const failures = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login_failed'));
    expect(failures.some((f) => (f.details as { reason?: string }).reason === 'no_account')).toBe(true);
  });

  it('creates a customer account where auto_create is on', async () => {
    const { landing } = await portalFlow('corp-auto', 'idp-stranger');
    const res = await exchange(landing.searchParams.get('ticket')!);
    const user = await me(`OIDC ${res.json<{ access: string }>().access}`);
    expect(user.json()).toMatchObject({ username: 'stranger', email: 'stranger@elsewhere.example' });
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
    const { landing } = await portalFlow('corp', 'idp-alice', '//evil.example/x');
    expect(landing.searchParams.get('next')).toBe('/');
  });
});

describe('Authorization: OIDC <token> issued by the IdP', () => {
  it('accepts an ID token of the IdP for our client, for an identity linked by an earlier sign-in', async () => {
    await portalFlow('corp', 'idp-alice');
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-alice');
    const res = await me(`OIDC ${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ username: string }>().username).toBe('alice');
  });

  it('refuses a tampered token', async () => {
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-alice');
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
    const token = await idTokenFor('other-app', 'other-app-secret-other-app', 'idp-alice');
    expect((await me(`OIDC ${token}`)).statusCode).toBe(401);
  });

  it('refuses an expired token signed with the IdP key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ email: 'alice@customer1.example', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: signingKid })
      .setIssuer(idp.issuer)
      .setAudience('portal')
      .setSubject('idp-alice')
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(signingKey);
    expect((await me(`OIDC ${expired}`)).statusCode).toBe(401);
    // the same token, still valid, passes: only the expiry made the difference
    const fresh = await new SignJWT({ email: 'alice@customer1.example', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: signingKid })
      .setIssuer(idp.issuer)
      .setAudience('portal')
      .setSubject('idp-alice')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(signingKey);
    expect((await me(`OIDC ${fresh}`)).statusCode).toBe(200);
  });

  it('refuses an IdP token under the Bearer scheme and a token of an unknown issuer', async () => {
    const token = await idTokenFor('portal', 'portal-secret-portal-secret', 'idp-alice');
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('http://127.0.0.1:1/')
      .setAudience('portal')
      .setSubject('idp-alice')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await me(`OIDC ${foreign}`)).statusCode).toBe(401);
  });
});
