import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES, PASSWORD_MESSAGES } from '@soc/contracts';
import { buildApp } from '../app.ts';
import { queryRows } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import type { BuiltUser } from '../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildSystem } from '../test/builders.ts';

/*
 * Sessions and secrets (issue 15, OWASP ASVS V3/V7/V14): security headers, CORS, cookies,
 * nothing secret in the logs, common passwords refused, lockout with audit entries.
 */

let ctx: TestContext;
/** Every log line the app wrote during this file. */
const logLines: string[] = [];
const webDist = mkdtempSync(path.join(tmpdir(), 'soc-web-'));
/** A customer who signs in, one who changes their password, one who gets locked out. */
let customer: BuiltUser;
let changer: BuiltUser;
let lockable: BuiltUser;

beforeAll(async () => {
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>portal</title><div id="root"></div>',
  );
  ctx = await createTestContext({
    incidents: 0,
    // debug: the most the server would ever log in production
    config: { webDist, logLevel: 'debug' },
    logStream: { write: (line) => void logLines.push(line) },
  });
  const system = await buildSystem(ctx);
  customer = await buildCustomer(ctx, [system.id]);
  changer = await buildCustomer(ctx, [system.id]);
  lockable = await buildCustomer(ctx, [system.id]);
}, 120_000);
afterAll(() => ctx?.close());

/** The directives of a Content-Security-Policy header. */
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );

describe('security headers', () => {
  it('sends a strict CSP, no-sniff, frame denial and the referrer policy on pages and API answers', async () => {
    const access = await customer.login();
    for (const res of [
      await ctx.app.inject('/incidents'),
      await ctx.app.inject({ url: '/api/v0/auth/user/', headers: bearer(access) }),
      await ctx.app.inject('/api/v0/nothing/'),
    ]) {
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      // no inline or evaluated script anywhere in the policy
      expect(String(res.headers['content-security-policy'])).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
      // plain HTTP (no PUBLIC_URL over TLS): no HSTS, which would lock browsers out
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends HSTS and upgrades requests when the portal is served over TLS', async () => {
    const app = await buildApp({
      config: { ...ctx.config, logLevel: 'silent', publicUrl: 'https://portal.example' },
      database: ctx.database,
    });
    try {
      const res = await app.inject('/incidents');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await app.close();
    }
  });
});

describe('CORS', () => {
  it('is closed by default: no cross-origin grant on preflight or on answers', async () => {
    const access = await customer.login();
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/v0/soc/incs/',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const res = await ctx.app.inject({
      url: '/api/v0/soc/incs/',
      headers: { ...bearer(access), origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('sessions and secrets', () => {
  it('keeps tokens out of cookies and every secret out of the logs', async () => {
    logLines.length = 0;
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: customer.username, password: BUILT_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const { access, refresh } = signIn.json<{ access: string; refresh: string }>();
    const refreshed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/refresh/',
      payload: { refresh },
    });
    const pair = refreshed.json<{ access: string; refresh: string }>();
    const calls = [
      await ctx.app.inject({ url: '/api/v0/soc/incs/', headers: bearer(pair.access) }),
      await ctx.app.inject({ url: '/api/v0/auth/user/', headers: { authorization: `OIDC ${pair.access}` } }),
      await ctx.app.inject({
        url: `/api/v0/soc/incs/?search=${encodeURIComponent('x')}`,
        headers: bearer(pair.access),
      }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        payload: { username: customer.username, password: 'Wrong-Password-42!' },
      }),
      await ctx.app.inject({
        method: 'PUT',
        url: '/api/v0/auth/password_change/',
        headers: bearer(pair.access),
        payload: {
          old_password: 'Wrong-Old-Password-7',
          password: 'Another-Secret-99',
          confirmed_password: 'Another-Secret-99',
        },
      }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/logout/',
        headers: bearer(pair.access),
        payload: { refresh: pair.refresh },
      }),
    ];
    // a token in a cookie would ride along with cross-site requests: the API uses none
    for (const res of [signIn, refreshed, ...calls]) expect(res.headers['set-cookie']).toBeUndefined();

    const log = logLines.join('');
    expect(logLines.length).toBeGreaterThan(5);
    for (const secret of [
      BUILT_PASSWORD,
      'Wrong-Password-42!',
      'Wrong-Old-Password-7',
      'Another-Secret-99',
      access,
      refresh,
      pair.access,
      pair.refresh,
    ]) {
      expect(log.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    // no JWT at all, whatever its origin
    expect(log).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}/);
  });

  it('refuses a common password on change, and takes a strong one', async () => {
    const access = await changer.login();
    const change = (password: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/v0/auth/password_change/',
        headers: { ...bearer(access), 'accept-language': 'en' },
        payload: { old_password: BUILT_PASSWORD, password, confirmed_password: password },
      });
    for (const common of ['password123', 'Qwertyuiop', 'iloveyou1']) {
      const res = await change(common);
      expect(res.statusCode, common).toBe(400);
      expect(res.json()).toEqual({ password: [PASSWORD_MESSAGES.common] });
    }
    expect((await change('Granite-Orchid-4417')).statusCode).toBe(200);
    await ctx.login(changer.username, 'Granite-Orchid-4417');
  });

  it('locks a username after 10 failed sign-ins, answers 429 with Retry-After, and audits both', async () => {
    const attempt = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        remoteAddress: '203.0.113.77',
        payload: { username: lockable.username, password },
      });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await attempt(`guess-${i}`)).statusCode).toBe(401);
    const locked = await attempt(BUILT_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    const rows = await queryRows<{ action: string; ip: string; username: string }>(
      ctx.database.db,
      sql`SELECT action, ip, details->>'username' AS username FROM audit_log
          WHERE action IN ('auth.login_failed', 'auth.locked') AND ip = '203.0.113.77' ORDER BY id`,
    );
    expect(rows.filter((r) => r.action === 'auth.login_failed')).toHaveLength(LOGIN_MAX_FAILURES);
    expect(rows.filter((r) => r.action === 'auth.locked')).toEqual([
      { action: 'auth.locked', ip: '203.0.113.77', username: lockable.username },
    ]);
    // the audit trail never holds the guessed passwords
    const details = await queryRows<{ d: string }>(
      ctx.database.db,
      sql`SELECT details::text AS d FROM audit_log WHERE ip = '203.0.113.77'`,
    );
    expect(details.map((d) => d.d).join()).not.toContain('guess-');
  });
});
