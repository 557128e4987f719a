import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testConfig } from '../../config.ts';
import { auditLog } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';

const SECRET = 'proxy-shared-secret-0123456789';

let bySecret: TestContext;
let byAddress: TestContext;
beforeAll(async () => {
  bySecret = await createTestContext({
    incidents: 0,
    config: {
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
}, 60_000);
afterAll(async () => {
  await bySecret.close();
  await byAddress.close();
});

const landing = (location: unknown) => new URL(String(location), 'http://portal.test');

describe('SSO through a trusted reverse proxy', () => {
  it('signs in the user named by the proxy and hands the web app a ticket for SSO tokens', async () => {
    const res = await bySecret.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/?next=/incidents',
      headers: { 'x-remote-user': 'Carol', 'x-sso-secret': SECRET, 'user-agent': 'sso-agent' },
    });
    expect(res.statusCode).toBe(302);
    const target = landing(res.headers.location);
    expect(target.pathname).toBe('/auth/callback');
    expect(target.searchParams.get('next')).toBe('/incidents');
    const tokens = await bySecret.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/ticket/',
      payload: { ticket: target.searchParams.get('ticket') },
    });
    const body = tokens.json<{ access: string; token_type: string }>();
    expect(body.token_type).toBe('SSO');
    const me = await bySecret.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: { authorization: `Bearer ${body.access}` },
    });
    expect(me.json<{ username: string }>().username).toBe('carol');
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
      { 'x-remote-user': 'carol' },
      { 'x-remote-user': 'carol', 'x-sso-secret': 'wrong' },
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
      headers: { 'x-remote-email': 'BOB@customer2.example' },
      remoteAddress: '10.9.9.9',
    });
    expect(landing(ok.headers.location).searchParams.get('ticket')).toBeTruthy();
    const elsewhere = await byAddress.app.inject({
      method: 'GET',
      url: '/api/v0/auth/sso/',
      headers: { 'x-remote-email': 'bob@customer2.example', 'x-forwarded-for': '10.9.9.9' },
      remoteAddress: '10.9.9.8',
    });
    expect(landing(elsewhere.headers.location).searchParams.get('error')).toBe('sso_failed');
  });

  it('tells the web app that SSO is on', async () => {
    const res = await bySecret.app.inject({ method: 'GET', url: '/api/v0/portal/config/' });
    expect(res.json()).toMatchObject({ sso_enabled: true });
  });
});
