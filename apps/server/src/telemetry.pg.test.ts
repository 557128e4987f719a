import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from './test/harness.ts';
import type { TestContext } from './test/harness.ts';
import { startTracedServer } from './test/traced-server.ts';
import type { TracedServer } from './test/traced-server.ts';

// What only a real PostgreSQL shows: the pg driver's query spans, and a job another process queued.
describe('traces on PostgreSQL (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let server: TracedServer;
  let ctx: TestContext;
  let base = '';
  const spanWhere: TracedServer['spanWhere'] = (test) => server.spanWhere(test);

  beforeAll(async () => {
    ctx = await createTestContext({ incidents: 0 });
    server = await startTracedServer(ctx.databaseUrl);
    base = server.base;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await ctx?.close();
  });

  it('exports the PostgreSQL queries of a request (pg)', async () => {
    await fetch(`${base}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'nobody-either', password: 'wrong-password-2' }),
    });
    const query = await spanWhere(
      (s) =>
        s.scope.includes('instrumentation-pg') &&
        /users/.test(String(s.attributes['db.statement'] ?? s.attributes['db.query.text'])),
    );
    expect(query.kind).toBe(3);
  });

  it('exports a span per job run (pg: a job queued in the shared database)', async () => {
    // no other runner takes it: the test's own app does not start its job runner
    const id = await ctx.app.jobs.enqueue('security_notice', { audit_id: 0 });
    const span = await spanWhere((s) => s.name === 'job security_notice' && s.attributes['job.id'] === id);
    expect(span.attributes['job.type']).toBe('security_notice');
  });
});
