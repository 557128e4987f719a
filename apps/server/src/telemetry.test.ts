import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from './test/harness.ts';
import type { TestContext } from './test/harness.ts';
import { activeTracer, startTelemetry, traced } from './telemetry.ts';

// The server as production runs it with traces on (`node --import …/telemetry.js …/main.js`),
// exporting to an OTLP/HTTP receiver in this test; the spans are awaited, never slept for.
const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const onPostgres = process.env.TEST_DB_DRIVER === 'pg' && !!process.env.TEST_DATABASE_URL;

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
interface OtlpExport {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}
/** A received span with its instrumentation scope and attributes as a plain object. */
interface Received {
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, string | number | undefined>;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  const received: Received[] = [];
  const listeners = new Set<() => void>();
  /** Resolves with the first received span that matches `test`, once it has come. */
  const spanWhere = (test: (span: Received) => boolean) =>
    new Promise<Received>((resolve) => {
      const check = () => {
        const found = received.find(test);
        if (!found) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      check();
    });

  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      if (request.url === '/v1/traces' && request.headers['content-type']?.includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              received.push({
                name: span.name,
                kind: span.kind,
                scope: scope.scope.name,
                attributes: Object.fromEntries(
                  span.attributes.map((a) => [a.key, a.value.stringValue ?? a.value.intValue]),
                ),
              });
        for (const listener of [...listeners]) listener();
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  // an identity provider that is not there: the portal's discovery request is the outbound call
  const idp = createServer((_request, response) => response.writeHead(404).end());
  let child: ChildProcess;
  let base = '';
  let dataDir = '';
  let ctx: TestContext | undefined;

  beforeAll(async () => {
    const [receiverPort, idpPort] = await Promise.all([listen(receiver), listen(idp)]);
    dataDir = mkdtempSync(path.join(tmpdir(), 'soc-traces-'));
    // PostgreSQL: a migrated database of this test; PGlite: main.ts migrates its own in dataDir
    if (onPostgres) ctx = await createTestContext({ incidents: 0 });
    child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './src/telemetry-start.ts', './src/main.ts'],
      {
        cwd: SERVER_DIR,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: dataDir,
          DEMO_DATA: 'false',
          LOG_LEVEL: 'warn',
          JWT_SECRET: 'traces-test-secret-traces-test-secret-0123',
          ...(ctx?.databaseUrl ? { DATABASE_URL: ctx.databaseUrl } : {}),
          ...(process.env.ATTACK_STIX_PATH ? { ATTACK_STIX_PATH: process.env.ATTACK_STIX_PATH } : {}),
          OIDC_PROVIDERS: JSON.stringify([
            { name: 'idp', issuer: `http://127.0.0.1:${idpPort}`, client_id: 'portal', allow_http: true },
          ]),
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
          OTEL_SERVICE_NAME: 'soc-portal-test',
          // export each span soon after it ends, so that the test's waits are short
          OTEL_BSP_SCHEDULE_DELAY: '50',
        },
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const errors: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => errors.push(line));
    base = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        const url = /SOC portal listening on (\S+)/.exec(line)?.[1];
        if (url) resolve(url);
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${errors.join('\n')}`)));
    });
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await ctx?.close();
    await Promise.all([receiver, idp].map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dataDir, { recursive: true, force: true });
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

  it.runIf(onPostgres)('exports the PostgreSQL queries of a request (pg)', async () => {
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

  it.runIf(onPostgres)('exports a span per job run (pg: a job queued in the shared database)', async () => {
    // no other runner takes it: the test's own app does not start its job runner
    const id = await ctx!.app.jobs.enqueue('security_notice', { audit_id: 0 });
    const span = await spanWhere((s) => s.name === 'job security_notice' && s.attributes['job.id'] === id);
    expect(span.attributes['job.type']).toBe('security_notice');
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
