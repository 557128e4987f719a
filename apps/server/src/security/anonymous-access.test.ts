import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPlugin, declarePublic } from '../plugins/auth.ts';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import type { ApiOperation } from './openapi-operations.ts';
import { loadOperations } from './openapi-operations.ts';

/*
 * Deny by default (issue 25, item 1). Every operation of the OpenAPI document, called without
 * credentials under every spelling of its path that a router, proxy or lenient server might read
 * as the same path, answers 401 (the route matched and refused) or 404 (no route matched), never
 * data, a redirect or a server error. The operations come from the document, so a route added
 * later is covered without editing this file. The app serves a built web app here, so that the
 * SPA fallback (index.html for unknown paths) is part of what is tried.
 */

/** Operations reachable without signing in: sign-in, the portal's public settings, health. */
const PUBLIC_OPERATIONS = [
  'GET /healthz',
  'GET /readyz',
  'GET /api/v0/portal/config/',
  'POST /api/v0/auth/token/obtain/',
  'POST /api/v0/auth/token/mfa/obtain/',
  'POST /api/v0/auth/token/mfa/generate_challenge/',
  'POST /api/v0/auth/token/refresh/',
  'POST /api/v0/auth/logout/',
  'POST /api/v0/auth/token/ticket/',
  'GET /api/v0/auth/oidc_providers/',
  'GET /api/v0/auth/oidc/{name}/start/',
  'GET /api/v0/auth/oidc/{name}/callback/',
  'GET /api/v0/auth/sso/',
  // authenticated by a one-time ticket in the query, see events.routes.ts
  'GET /api/v0/events/',
  // authenticated by the inbound mail secret, see inbound-mail.routes.ts
  'POST /api/v0/soc/inbound_mail/',
  // the demo's SMS outbox (config.sms.outbox), never with a gateway
  'GET /api/v0/dev/sms_outbox/',
].sort();

let ctx: TestContext;
let ops: ApiOperation[];

beforeAll(async () => {
  const webDist = mkdtempSync(path.join(tmpdir(), 'soc-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  ctx = await createTestContext({ incidents: 0, config: { webDist } });
  ops = await loadOperations(ctx.app);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

/** The path with every parameter given a value (the call is refused before it is read). */
const filled = (p: string) => p.replace(/\{[^}]+\}/g, '1');

const encodeChar = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/** Spellings of one path that a lenient reader takes for the same path. */
function pathVariants(template: string): Record<string, string> {
  const written = filled(template);
  const segments = written.split('/');
  const variants: Record<string, string> = { 'as written': written };
  if (written.startsWith('/api/')) {
    for (const [i, c] of [...'api'].entries()) {
      const encoded = `/${'api'.slice(0, i)}${encodeChar(c)}${'api'.slice(i + 1)}`;
      variants[`"${c}" of api encoded`] = encoded + written.slice(4);
      variants[`"${c}" of api upper-cased and encoded`] =
        `/${'api'.slice(0, i)}${encodeChar(c.toUpperCase())}${'api'.slice(i + 1)}${written.slice(4)}`;
    }
    variants['upper-case API'] = `/API${written.slice(4)}`;
    variants['mixed-case Api'] = `/Api${written.slice(4)}`;
    variants['a .. segment'] = written.replace('/api/v0/', '/api/v0/x/../');
    variants['an encoded .. segment'] = written.replace('/api/v0/', '/api/v0/x/%2E%2E/');
  }
  variants['whole path in upper case'] = written.toUpperCase();
  // each slash encoded in turn, then all of them
  for (let i = 1; i < segments.length; i += 1) {
    variants[`slash ${i} encoded`] = `${segments.slice(0, i).join('/')}%2F${segments.slice(i).join('/')}`;
  }
  variants['every slash encoded'] = written.replaceAll('/', '%2F');
  variants['leading double slash'] = `/${written}`;
  variants['double slash inside'] = written.replace(/\/([^/]+)\//, '/$1//');
  variants['trailing double slash'] = `${written}/`;
  variants['trailing ;'] = `${written};`;
  variants['trailing ;parameter'] = `${written};x=1`;
  if (template.includes('{')) {
    variants['parameter encoded'] = template.replace(/\{[^}]+\}/g, '%31');
  }
  return variants;
}

describe('deny by default, generated from the OpenAPI document', () => {
  it('declares exactly the expected operations reachable without signing in', () => {
    const declared = ops.filter((op) => op.anonymous).map((op) => op.id);
    expect(declared.sort()).toEqual(PUBLIC_OPERATIONS);
  });

  it('refuses every other operation without credentials, under every spelling of its path', async () => {
    const guarded = ops.filter((op) => !op.anonymous);
    expect(guarded.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const op of guarded) {
      for (const [variant, url] of Object.entries(pathVariants(op.path))) {
        // HEAD is the GET route's twin, and must be refused as well
        for (const method of op.method === 'GET' ? (['GET', 'HEAD'] as const) : [op.method]) {
          const res = await ctx.app.inject({ method, url });
          const expected = variant === 'as written' ? [401] : [401, 404];
          const servesPage = String(res.headers['content-type'] ?? '').startsWith('text/html');
          if (!expected.includes(res.statusCode) || servesPage) {
            wrong.push(
              `${method} ${op.path} ${variant} (${url}): ${res.statusCode} ${res.body.slice(0, 60)}`,
            );
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('answers the same spellings of a public route like the route or 404, never the page', async () => {
    for (const [variant, url] of Object.entries(pathVariants('/api/v0/portal/config/'))) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect([200, 404], `${variant} ${url}`).toContain(res.statusCode);
      expect(String(res.headers['content-type']), `${variant} ${url}`).toContain('application/json');
    }
  });
});

describe('routes outside the document', () => {
  it('requires sign-in on any route that does not declare itself public, wherever it lives', async () => {
    const app = Fastify();
    await app.register(authPlugin, {
      loadAuthUser: async () => undefined,
      verifyAccessToken: async () => null,
    });
    app.get('/anywhere/', { schema: { hide: true } }, async () => ({ data: 'secret' }));
    app.get('/open/', { config: { public: true } }, async () => ({ ok: true }));
    await app.register(async (scope) => {
      scope.addHook('onRoute', declarePublic);
      scope.get('/scoped/', async () => ({ ok: true }));
    });
    try {
      expect((await app.inject('/anywhere/')).statusCode).toBe(401);
      expect((await app.inject('/%61nywhere/')).statusCode).toBe(401);
      expect((await app.inject('/open/')).statusCode).toBe(200);
      expect((await app.inject('/scoped/')).statusCode).toBe(200);
      expect((await app.inject('/nowhere/')).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('serves the web app, its files, the API reference and health without credentials', async () => {
    for (const url of ['/', '/assets/app.js', '/incs', '/api/v0/docs/', '/api/v0/docs/json', '/healthz']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(400);
    }
  });

  it('answers 404, not the page, for a missing asset and unknown API paths in any spelling', async () => {
    for (const url of [
      '/assets/missing.js',
      '/api/v0/nothing/',
      '/%61pi/v0/nothing/',
      '/API/v0/soc/',
      '/%2e%2e/api/x',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail: 'Not found.' });
    }
  });
});
