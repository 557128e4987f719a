import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildIncident, buildSystem, buildUser } from '../test/builders.ts';
import type { ApiOperation } from './openapi-operations.ts';
import { loadOperations } from './openapi-operations.ts';

/*
 * Issue 25, item 17. (a) No answer of a signed-in caller may be kept by a shared cache or the
 * browser's history: every non-public API answer says `Cache-Control: no-store` (or `private`
 * where a download chose its own). Generated from the OpenAPI document: every GET operation
 * without path parameters, as the administrator. (c) `next`/`previous` links never carry the
 * caller's Host header: under PUBLIC_URL when it is set, relative to the root otherwise.
 */

const PUBLIC_URL = 'https://portal.example.com';
const FORGED_HOST = 'evil.example.net';

let ctx: TestContext;
let ops: ApiOperation[];
let admin: string;
let adminName: string;

/** An administrator, and enough incidents for a second page of five and a third. */
async function fill(context: TestContext): Promise<string> {
  const system = await buildSystem(context);
  for (let i = 0; i < 12; i++) await buildIncident(context, system.id);
  const user = await buildUser(context, { role: 'admin' });
  adminName = user.username;
  return user.login();
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0, config: { publicUrl: PUBLIC_URL } });
  ops = await loadOperations(ctx.app);
  admin = await fill(ctx);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

const keepsNothing = (value: unknown) => typeof value === 'string' && /\b(no-store|private)\b/.test(value);

describe('Cache-Control of API answers', () => {
  it('says no-store (or private) on every signed-in answer of the document', async () => {
    const reads = ops.filter((op) => op.method === 'GET' && !op.anonymous && op.pathParams.length === 0);
    expect(reads.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const op of reads) {
      const res = await ctx.app.inject({ method: 'GET', url: op.path, headers: bearer(admin) });
      if (!keepsNothing(res.headers['cache-control'])) {
        wrong.push(`${op.id}: ${res.statusCode} ${String(res.headers['cache-control'])}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('says no-store on refusals and on the answers that carry tokens', async () => {
    const refused = await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const obtained = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: adminName, password: 'wrong-password-entirely' },
    });
    expect(obtained.headers['cache-control']).toBe('no-store');
    const written = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/logout/',
      payload: { refresh: 'x' },
    });
    expect(written.headers['cache-control']).toBe('no-store');
  });

  it('leaves the caching of public pages and files to them', async () => {
    const config = await ctx.app.inject('/api/v0/portal/config/');
    expect(config.headers['cache-control']).toBe('no-cache');
    expect((await ctx.app.inject('/healthz')).headers['cache-control']).toBeUndefined();
  });
});

describe('next and previous links', () => {
  it('are built from PUBLIC_URL, whatever Host the request names', async () => {
    for (const url of ['/api/v0/soc/incs/?limit=5&offset=5', '/api/v0/soc/rules/?page=2&page_size=5']) {
      const res = await ctx.app.inject({ url, headers: { ...bearer(admin), host: FORGED_HOST } });
      const page = res.json<{ next: string | null; previous: string | null }>();
      for (const link of [page.next, page.previous]) {
        expect(link, url).toMatch(new RegExp(`^${PUBLIC_URL}/api/v0/soc/`));
        expect(link, url).not.toContain(FORGED_HOST);
      }
    }
  });
});

describe('next and previous links without PUBLIC_URL', () => {
  let other: TestContext;
  beforeAll(async () => {
    other = await createTestContext({ incidents: 0 });
  }, 120_000);
  afterAll(async () => {
    await other?.close();
  });

  it('are relative to the root and never carry the Host header', async () => {
    const access = await fill(other);
    const res = await other.app.inject({
      url: '/api/v0/soc/incs/?limit=5&offset=5',
      headers: { ...bearer(access), host: FORGED_HOST },
    });
    const page = res.json<{ next: string | null; previous: string | null }>();
    expect(page.next).toBe('/api/v0/soc/incs/?limit=5&offset=10');
    expect(page.previous).toBe('/api/v0/soc/incs/?limit=5&offset=0');
  });
});
