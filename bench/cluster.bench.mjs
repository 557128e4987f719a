// Two instances on one PostgreSQL behind a round-robin proxy (bench/proxy.mjs, its own process):
// the topology of deploy/compose.yaml with plain processes (issue 14). It measures
//  1. throughput of the incident card and list with one instance and with two behind the proxy
//     (32 connections, BENCH_DURATION s each; on 2 cores the gain is bounded by the cores);
//  2. the sign-in rate limit shared through Redis (REDIS_URL; a key prefix of this run): requests
//     spread over both instances get the limit once, not once per instance;
//  3. background jobs run once: BENCH_JOBS asynchronous CSV exports (GET /soc/incs/get_async_csv/)
//     queued through the proxy give exactly that many finished jobs and e-mails, whichever
//     instance took each (each instance writes its mail into its own DATA_DIR/outbox).
// BENCH_INCIDENTS=N (default 1,000,000) as in the other benches; REDIS_URL (default
// redis://127.0.0.1:6379).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import {
  BENCH_URL,
  PASSWORD,
  ROOT,
  ensureDataSet,
  freePort,
  ms,
  psql,
  signIn,
  startServer,
  stats,
} from './support.mjs';

const N = Number(process.env.BENCH_INCIDENTS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const JOBS = Number(process.env.BENCH_JOBS ?? 40);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RATE_LIMIT = 10;

ensureDataSet({ incidents: N, systems: 50, users: 2000 });
const keys = psql(
  BENCH_URL,
  `SELECT i.key FROM incidents i JOIN issue_types t ON t.id = i.issue_type_id AND t.code = 'incident'
    ORDER BY md5(i.key::text) LIMIT 2000`,
)
  .split('\n')
  .map(Number);
let turn = 0;

const prefix = `soc-bench-${randomBytes(4).toString('hex')}:`;
const env = () => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soc-cluster-')),
  TRUST_PROXY: 'true',
  REDIS_URL,
  REDIS_KEY_PREFIX: prefix,
  AUTH_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
});

async function startProxy(upstreams) {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/proxy.mjs', String(port), ...upstreams], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

/** 32 connections for DURATION s on `url` + path(); req/s and latency percentiles. */
async function load(url, token, pathOf) {
  const latencies = [];
  const instance = autocannon({
    url,
    connections: 32,
    duration: DURATION,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ setupRequest: (req) => ({ ...req, path: pathOf() }) }],
  });
  instance.on('response', (_c, _s, _b, time) => latencies.push(time));
  const r = await instance;
  return {
    rps: r.requests.total / r.duration,
    errors: r.non2xx + r.errors + r.timeouts,
    ...stats(latencies),
  };
}

const endpoints = {
  'incident card': () => `/api/v0/soc/incs/${keys[turn++ % keys.length]}/`,
  'incidents list (-created)': () => '/api/v0/soc/incs/?limit=40&ordering=-created',
};

const rows = [];
const aEnv = env();
const bEnv = env();
const a = await startServer(aEnv);
let b;
const proxies = [];
try {
  const token = await signIn(a.url, 'analyst');
  const one = await startProxy([a.url]);
  proxies.push(one);
  for (const [name, pathOf] of Object.entries(endpoints)) {
    rows.push({ setup: '1 instance, direct', name, ...(await load(a.url, token, pathOf)) });
    rows.push({ setup: '1 instance behind the proxy', name, ...(await load(one.url, token, pathOf)) });
  }
  b = await startServer(bEnv);
  const two = await startProxy([a.url, b.url]);
  proxies.push(two);
  for (const [name, pathOf] of Object.entries(endpoints)) {
    rows.push({ setup: '2 instances behind the proxy', name, ...(await load(two.url, token, pathOf)) });
  }
  console.log(`\nThroughput, 32 connections, ${DURATION} s each, ${N.toLocaleString('en')} incidents`);
  console.log('| endpoint | setup | req/s | p50 | p95 | p99 | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.setup} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.errors} |`,
    );
  console.log(`RSS after the runs: a ${a.rssMb().toFixed(0)} MB, b ${b.rssMb().toFixed(0)} MB`);

  // 2. the shared rate limit: one client (its own X-Forwarded-For address) signs in 3 × the limit
  // times through the proxy, i.e. 1.5 × the limit on each instance
  const client = `198.51.100.${1 + (Date.now() % 250)}`;
  const codes = [];
  for (let i = 0; i < 3 * RATE_LIMIT; i++) {
    const res = await fetch(`${two.url}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ username: 'analyst', password: PASSWORD }),
    });
    await res.arrayBuffer();
    codes.push(res.status);
  }
  const ok = codes.filter((c) => c === 200).length;
  const limited = codes.filter((c) => c === 429).length;
  console.log(
    `\nShared sign-in limit (${RATE_LIMIT}/min per client address, Redis ${new URL(REDIS_URL).host}): ` +
      `${codes.length} sign-ins alternating over 2 instances → ${ok} × 200, ${limited} × 429 ` +
      `(in-memory counters would let ${2 * RATE_LIMIT} through): ${ok === RATE_LIMIT ? 'pass' : 'FAIL'}`,
  );

  // 3. jobs run once
  const since = psql(BENCH_URL, 'SELECT now()');
  const day = 86_400_000;
  const query = `created__gte=${Date.now() - day}&language=en`;
  for (let i = 0; i < JOBS; i++) {
    const res = await fetch(`${two.url}/api/v0/soc/incs/get_async_csv/?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`get_async_csv: ${res.status}`);
  }
  const started = performance.now();
  const done = () =>
    Number(
      psql(
        BENCH_URL,
        `SELECT count(*) FROM jobs WHERE type = 'incidents.csv' AND created_at >= '${since}' AND status = 'done'`,
      ),
    );
  while (done() < JOBS && performance.now() - started < 180_000) await new Promise((r) => setTimeout(r, 500));
  const seconds = (performance.now() - started) / 1000;
  // a duplicate run would come after the first: give it time to show
  await new Promise((r) => setTimeout(r, 3000));
  const jobs = psql(
    BENCH_URL,
    `SELECT status, count(*), sum(attempts), count(DISTINCT locked_by) FROM jobs
      WHERE type = 'incidents.csv' AND created_at >= '${since}' GROUP BY status`,
  );
  const outboxes = [aEnv.DATA_DIR, bEnv.DATA_DIR].map((dir) => {
    const outbox = path.join(dir, 'outbox');
    let files = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    } catch {
      // no mail from this instance
    }
    return files.filter((f) =>
      /^To: .*analyst@soc\.example/im.test(readFileSync(path.join(outbox, f), 'utf8')),
    ).length;
  });
  const total = outboxes[0] + outboxes[1];
  console.log(
    `\nJobs run once: ${JOBS} asynchronous CSV exports queued through the proxy; finished in ${seconds.toFixed(1)} s; ` +
      `jobs (status, count, attempts, workers): ${jobs.replaceAll('\n', '; ')}; CSV e-mails in the outboxes: ` +
      `instance a ${outboxes[0]}, instance b ${outboxes[1]}, total ${total} (expected ${JOBS}): ` +
      `${total === JOBS && done() === JOBS ? 'pass' : 'FAIL'}`,
  );
} finally {
  for (const p of proxies) await p.stop();
  await b?.stop();
  await a.stop();
}
