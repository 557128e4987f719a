import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from './test/harness.ts';
import type { TestContext } from './test/harness.ts';
import { startTracedServer } from './test/traced-server.ts';
import type { TracedServer } from './test/traced-server.ts';
import { activeTracer, startTelemetry, traced } from './telemetry.ts';

// On PostgreSQL the server runs on a migrated database of this test; on PGlite it migrates its own.
const onPostgres = process.env.TEST_DB_DRIVER === 'pg' && !!process.env.TEST_DATABASE_URL;

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let server: TracedServer;
  let ctx: TestContext | undefined;
  let base = '';
  const spanWhere: TracedServer['spanWhere'] = (test) => server.spanWhere(test);

  beforeAll(async () => {
    if (onPostgres) ctx = await createTestContext({ incidents: 0 });
    server = await startTracedServer(ctx?.databaseUrl);
    base = server.base;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await ctx?.close();
  });

  it('exports a server span named by the route template for an incoming request', async () => {
    const res = await fetch(`${base}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'nobody-here', password: 'wrong-password-1' }),
    });
    expect(res.status).toBe(401);
    const span = await spanWhere((s) => s.kind === 2 && s.name === 'POST /api/v0/auth/token/obtain/');
    expect(span.attributes['http.route']).toBe('/api/v0/auth/token/obtain/');
    expect(span.attributes['http.response.status_code']).toBe(401);
  });

  it('exports an outbound fetch (the OIDC discovery of a sign-in)', async () => {
    const res = await fetch(`${base}/api/v0/auth/oidc/idp/start/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const span = await spanWhere(
      (s) => s.kind === 3 && String(s.attributes['url.full']).endsWith('/.well-known/openid-configuration'),
    );
    expect(span.scope).toContain('undici');
    expect(span.attributes['http.response.status_code']).toBe(404);
  });
});

describe('traces off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('starts nothing, and traced() only runs the function', async () => {
    expect(await startTelemetry({})).toBeUndefined();
    expect(activeTracer()).toBeUndefined();
    expect(await traced('job x', {}, async () => 42)).toBe(42);
  });
});
