// Shared pieces of the benchmarks: the bench database, the production server, sign-in, timing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/**
 * The bench database. By default over PostgreSQL's Unix socket where it has one (a server on the
 * same host, as here): on this VM a TCP round trip over loopback costs the app and PostgreSQL
 * several times the CPU of a socket one (README: PostgreSQL settings). BENCH_DATABASE_URL=postgres://…@127.0.0.1…
 * measures over TCP.
 */
export const BENCH_URL =
  process.env.BENCH_DATABASE_URL ??
  (existsSync('/var/run/postgresql/.s.PGSQL.5432')
    ? 'postgres:///soc_bench?host=/var/run/postgresql&user=postgres'
    : 'postgres://postgres@127.0.0.1:5432/soc_bench');
export const PASSWORD = 'SocDemo-2026!';

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export function psql(url, query) {
  const r = spawnSync('psql', [url, '-Atqc', query], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

/** Makes sure the bench database holds at least `incidents` incidents (generating them if not). */
export function ensureDataSet({ incidents, systems, users }) {
  let have = 0;
  try {
    have = Number(psql(BENCH_URL, 'SELECT count(*) FROM incidents'));
  } catch {
    psql(ADMIN_URL, `CREATE DATABASE ${new URL(BENCH_URL).pathname.slice(1)}`);
  }
  if (have >= incidents) return { generated: false, seconds: 0, count: have };
  console.log(`Generating ${incidents} incidents into ${BENCH_URL} (one-off; reused by later runs)…`);
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      'apps/server/dist/demo-cli.js',
      '--incidents',
      String(incidents),
      '--systems',
      String(systems),
      '--users',
      String(users),
      '--reset',
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: BENCH_URL, NODE_ENV: 'development' },
    },
  );
  if (r.status !== 0) throw new Error('data generation failed');
  return { generated: true, seconds: (performance.now() - started) / 1000, count: incidents };
}

/**
 * Starts the production build on the bench database; resolves once it is ready. Its PostgreSQL
 * sessions carry the application name `appName` (`soc-bench-<port>`, through PGAPPNAME), which
 * tells its backends in `pg_stat_activity` from everyone else's. BENCH_API_CPUS=1 runs it under
 * `taskset -c 1` (the pinned-core check of docs/performance.md, "Scaling out").
 */
export async function startServer(env = {}) {
  const port = await freePort();
  const appName = `soc-bench-${port}`;
  const cpus = process.env.BENCH_API_CPUS;
  const command = [process.execPath, 'apps/server/dist/main.js'];
  // taskset execs the command, so the child's pid is the server's
  const [file, ...args] = cpus ? ['taskset', '-c', cpus, ...command] : command;
  const child = spawn(file, args, {
    cwd: ROOT,
    env: {
      PGAPPNAME: appName,
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: BENCH_URL,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
      DEMO_DATA: 'false',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      DATABASE_POOL_SIZE: '16',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid,
    appName,
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

export async function signIn(url, username) {
  const res = await fetch(`${url}/api/v0/auth/token/obtain/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()).access;
}

/** Latencies (ms) of `count` sequential GETs after `warm` warm-up calls: server time as one client sees it. */
export async function timeGets(url, token, count = 40, warm = 3) {
  const one = async () => {
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${res.status} ${url}`);
    return performance.now() - t;
  };
  // the first request of a URL is built by the server; repeated ones may come from its caches
  let first;
  for (let i = 0; i < warm; i++) {
    const t = await one();
    first ??= t;
  }
  const times = [];
  for (let i = 0; i < count; i++) times.push(await one());
  return { ...stats(times), first: first ?? times[0] };
}

export function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1] };
}

export const ms = (v) => `${v.toFixed(1)} ms`;

/** Milliseconds per clock tick of /proc/PID/stat (CLK_TCK, 100 on Linux). */
const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/**
 * CPU time (user + system, ms) a process has used so far, all its threads included (fields 14
 * and 15 of /proc/PID/stat); undefined once it is gone.
 */
export function cpuMs(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name (field 2) may hold spaces and parentheses: count from its closing one
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** The pids of every process named `postgres` (the postmaster, its backends and helpers). */
export function postgresPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
