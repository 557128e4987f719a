import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

/**
 * The real server (src/main.ts) as a child process on the test's PostgreSQL, for fault tests
 * (SIGKILL during a job). `env` adds to a production configuration without demo data; the
 * process's output is printed if it exits with an error other than the kill.
 */
export function startServerProcess(env: Record<string, string | undefined>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_POOL_SIZE: '3',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  child.on('exit', (code, signal) => {
    if (code && signal !== 'SIGKILL') console.error(`server exited ${code}:\n${log}`);
  });
  return child;
}

/** Resolves once the process has exited (at once if it has). */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Polls `probe` every 100 ms until it answers something truthy, for at most `ms`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  ms = 40_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
