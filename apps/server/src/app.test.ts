import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { buildCustomer } from './test/builders.ts';
import type { TestContext } from './test/harness.ts';
import { createTestContext } from './test/harness.ts';

let ctx: TestContext;
const webDist = mkdtempSync(path.join(tmpdir(), 'soc-web-'));
beforeAll(async () => {
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>portal</title><div id="root"></div>',
  );
  writeFileSync(path.join(webDist, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(
    path.join(webDist, 'version.json'),
    JSON.stringify({ version: '2.10.24', build_id: 'build-42' }),
  );
  ctx = await createTestContext({ incidents: 0, config: { webDist } });
});
afterAll(() => ctx.close());

describe('health', () => {
  it('answers liveness and readiness', async () => {
    expect((await ctx.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    // main.ts starts the warm-up once the server listens (modules/health/health.routes.test.ts)
    await ctx.app.readiness.start();
    expect((await ctx.app.inject('/readyz')).json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' });
  });

  it('answers 503 with Retry-After on the API until main.ts says the database is ready; the probes and pages answer', async () => {
    let ready = false;
    const app = await buildApp({ config: ctx.config, database: ctx.database, databaseReady: () => ready });
    try {
      const before = await app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        headers: { 'accept-language': 'en' },
        payload: { username: 'nobody', password: 'nothing-at-all' },
      });
      expect(before.statusCode).toBe(503);
      expect(Number(before.headers['retry-after'])).toBeGreaterThan(0);
      expect(before.json()).toEqual({ detail: expect.stringMatching(/temporarily unavailable/) as unknown });
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      expect((await app.inject('/')).statusCode).toBe(200);
      ready = true;
      const after = await app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        payload: { username: 'nobody', password: 'nothing-at-all' },
      });
      expect(after.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI document', () => {
  it('is served at /api/v0/docs/json and lists the auth calls', async () => {
    const res = await ctx.app.inject('/api/v0/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(doc.paths['/api/v0/auth/token/obtain/'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/v0/auth/password_change/'] ?? {})).toContain('put');
    expect(Object.keys(doc.paths['/api/v0/auth/user/'] ?? {})).toContain('get');
  });

  it('serves the interactive reference without sign-in', async () => {
    const res = await ctx.app.inject('/api/v0/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/html/);
  });
});

describe('portal config', () => {
  it('gives branding, flags and the build id before sign-in', async () => {
    const res = await ctx.app.inject('/api/v0/portal/config/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      portal_name: 'SOC Portal',
      version: '2.10.24',
      build_id: 'build-42',
      flags: { hide_oidc_buttons: false, hide_eps_widget: false },
      error_reporting_dsn: null,
    });
  });
});

describe('web app and unknown paths', () => {
  it('serves index.html for client-side routes, uncached', async () => {
    const res = await ctx.app.inject('/incidents?status__in=closed');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the app at the root path', async () => {
    const res = await ctx.app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
  });

  it('caches hashed assets for a year', async () => {
    const res = await ctx.app.inject('/assets/index-abc.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    // never revalidated: no validators, no range offer (bytes on each of a visit's files)
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
    expect(res.headers['accept-ranges']).toBeUndefined();
  });

  it('keeps validators on the files that are revalidated', async () => {
    const res = await ctx.app.inject('/version.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeDefined();
  });

  it('answers a missing asset with 404, not with the page', async () => {
    expect((await ctx.app.inject('/assets/index-gone.js')).statusCode).toBe(404);
  });

  it('answers unknown API paths with 404 JSON, before and after sign-in', async () => {
    // authentication is decided on the matched route: no route, nothing to authenticate
    expect((await ctx.app.inject('/api/v0/nothing-here/')).statusCode).toBe(404);
    const access = await (await buildCustomer(ctx)).login();
    const res = await ctx.app.inject({
      url: '/api/v0/nothing-here/',
      headers: { authorization: `Bearer ${access}`, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('sends security headers', async () => {
    const res = await ctx.app.inject('/dashboard');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});
