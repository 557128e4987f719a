import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
  output(): string;
}

/**
 * Starts the production build (`apps/server/dist/main.js`, serving `apps/web/dist`) on a fresh
 * embedded database with a small demo data set, and waits until it is ready.
 */
export async function startServer(
  env: Record<string, string> = {},
  /** A port reserved by the caller (e.g. registered with an identity provider beforehand). */
  reservedPort?: number,
): Promise<RunningServer> {
  const main = path.join(ROOT, 'apps/server/dist/main.js');
  if (!existsSync(main) || !existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The app is not built: run `npm run build` first (npm test does).');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-e2e-'));
  const port = reservedPort ?? (await freePort());
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO_INCIDENTS: '300',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // webhook receivers of the tests listen on loopback (webhooks.e2e.ts)
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  // a demo load on a busy two-core machine can take over a minute
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
