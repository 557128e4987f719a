import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { until } from './server-process.ts';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

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
export interface Received {
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, string | number | undefined>;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

export interface TracedServer {
  /** The server's base URL, once it is ready (its warm-up has ended). */
  base: string;
  /** Resolves with the first received span that matches `test`, once it has come. */
  spanWhere(test: (span: Received) => boolean): Promise<Received>;
  close(): Promise<void>;
}

/**
 * The server as production runs it with traces on (`node --import …/telemetry.js …/main.js`),
 * exporting to an OTLP/HTTP receiver of this process, with an OIDC provider that is not there
 * (the portal's discovery request is then an outbound call). Without `databaseUrl` the server
 * migrates its own embedded database in a temporary folder. Spans are awaited, never slept for.
 */
export async function startTracedServer(databaseUrl?: string): Promise<TracedServer> {
  const received: Received[] = [];
  const listeners = new Set<() => void>();
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
  const idp = createServer((_request, response) => response.writeHead(404).end());
  const [receiverPort, idpPort] = await Promise.all([listen(receiver), listen(idp)]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-traces-'));
  const child: ChildProcess = spawn(
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
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
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
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await Promise.all([receiver, idp].map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const lines = createInterface({ input: child.stdout! });
    const errors: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => errors.push(line));
    const base = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        const url = /SOC portal listening on (\S+)/.exec(line)?.[1];
        if (url) resolve(url);
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${errors.join('\n')}`)));
    });
    // the server listens before its warm-up ends (its API answers 503 until then)
    await until('the traced server ready', async () => (await fetch(`${base}/readyz`)).ok, 150_000);
    return { base, spanWhere, close };
  } catch (err) {
    await close();
    throw err;
  }
}
