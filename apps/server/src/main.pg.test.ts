import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminStatement } from './test/harness.ts';
import type { TcpProxy } from './test/tcp-proxy.ts';
import { startTcpProxy } from './test/tcp-proxy.ts';
import { exited, startServerProcess, until } from './test/server-process.ts';

/*
 * Issue 38, item 2: the real server (src/main.ts) started while its PostgreSQL cannot be reached
 * exited with status 1. It listens anyway: /healthz answers 200, /readyz 503 naming the database,
 * the API 503 with Retry-After, while it tries the database again with a growing delay; once the
 * database is there it migrates and becomes ready, without a restart and without logging the
 * URL's password.
 */

const PASSWORD = `never-logged-${randomBytes(4).toString('hex')}`;
let proxy: TcpProxy;
let child: ChildProcess | undefined;
let output = '';
let dataDir: string;
const dbName = `soc_start_${process.pid}_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  await adminStatement(`CREATE DATABASE ${dbName}`);
  const target = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  // PostgreSQL is "down": the proxy's port refuses every connection
  await proxy.cut();
  dataDir = mkdtempSync(path.join(tmpdir(), 'soc-start-'));
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (child) await exited(child);
  await proxy?.close();
  await adminStatement(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a server started while PostgreSQL is unreachable', () => {
  it('listens, answers 503 naming the database, and becomes ready once the database is back', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    url.pathname = `/${dbName}`;
    url.password = PASSWORD;
    const server = startServerProcess({
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      JWT_SECRET: 'start-test-secret-start-test-secret-012345',
    });
    child = server;
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));

    const base = await until(
      'the server to listen',
      async () => {
        if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}:\n${output}`);
        return /listening on (http:\/\/\S+)/.exec(output)?.[1];
      },
      90_000,
    );
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    const state = (await notReady.json()) as { database: string; warming_up: string[] };
    expect(state.database).toBe('unavailable');
    expect(state.warming_up).toContain('database');
    const signIn = await fetch(`${base}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ username: 'nobody', password: 'nothing-at-all' }),
    });
    expect(signIn.status).toBe(503);
    expect(Number(signIn.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Object.keys((await signIn.json()) as object)).toEqual(['detail']);
    // it says why it is not ready, and tries again
    await until('a logged failure of the database step', async () => output.includes('"step":"database"'));

    // the database is back: migrated, warmed, ready
    await proxy.restore();
    await until('/readyz to answer 200', async () => (await fetch(`${base}/readyz`)).status === 200, 90_000);
    const unknown = await fetch(`${base}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'nobody', password: 'nothing-at-all' }),
    });
    expect(unknown.status).toBe(401);
    expect(server.exitCode).toBeNull();
    expect(output).not.toContain(PASSWORD);
    // DEMO_DATA=false: no demo accounts, and no banner that names them
    expect(output).not.toContain('Demo logins');

    server.kill('SIGTERM');
    await exited(server);
    expect(server.exitCode).toBe(0);
  }, 240_000);
});
