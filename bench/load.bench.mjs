// The load table of issue 14: the production build on the bench PostgreSQL database, autocannon at
// 32 concurrent connections for BENCH_DURATION seconds (default 10) per endpoint, and beside each
// HTTP figure the PostgreSQL execution time of the statements the same request runs.
//
// Database time: a second server process connects with auto_explain preloaded in its sessions
// (PGOPTIONS: log_analyze on, log_timing off, every statement; log_min_duration_statement=0), so
// PostgreSQL itself logs the EXPLAIN (ANALYZE) execution time of every statement the app issues,
// with the app's own SQL and parameters, and the time of each protocol step (parse, bind = plan,
// execute). The bench sends each request alone, reads the new "duration:" entries of the
// PostgreSQL log (BENCH_PG_LOG, default /var/log/postgresql/postgresql-15-main.log) and sums
// them per request (median of 7 requests). No SQL is rewritten by hand. The log is read, so the
// bench runs where PostgreSQL runs and may read its log.
//
// BENCH_INCIDENTS=N (default 1,000,000) generates a data set of that size when the database holds
// fewer; BENCH_ONLY=a,b runs the endpoints whose name contains one of the words.
//
// CPU per request (issue 31 part 5, the scale-out model of docs/performance.md): over each
// endpoint's autocannon run, the CPU time (user + system, /proc/PID/stat, all threads) of the API
// process and of the PostgreSQL backends serving it, divided by the responses. The backends are
// those whose application_name is the server's own (PGAPPNAME, see startServer), polled from
// pg_stat_activity every 250 ms by one extra connection; a backend that appears during the run
// counts from zero, one that leaves keeps its last reading. That isolates the server under test
// from other work on a shared PostgreSQL (other people's tests). As a cross-check the table also
// shows the CPU of every process named postgres over the run (backends, walwriter, checkpointer…),
// meaningful only while nothing else uses the database, and the bench process's own CPU (the load
// generator). Bytes = what autocannon read per response, headers included (no Accept-Encoding).
// BENCH_PATH_PIDS=pid,pid: other processes on the request's path (a proxy, PgBouncer), whose CPU
// per request the model table shows as "path".
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  BENCH_URL,
  PASSWORD,
  cpuMs,
  ensureDataSet,
  ms,
  postgresPids,
  psql,
  signIn,
  startServer,
  stats,
  timeGets,
} from './support.mjs';

const N = Number(process.env.BENCH_INCIDENTS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;
const SIGN_IN_CONNECTIONS = 4;
const PG_LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const PATH_PIDS = (process.env.BENCH_PATH_PIDS ?? '').split(',').filter(Boolean).map(Number);

const data = ensureDataSet({ incidents: N, systems: 50, users: 2000 });
if (data.generated) console.log(`generated ${N} incidents in ${data.seconds.toFixed(0)} s`);
const incidents = Number(psql(BENCH_URL, 'SELECT count(*) FROM incidents'));
const alertsTotal = Number(psql(BENCH_URL, 'SELECT count(*) FROM alerts'));

// incident keys the card, comments and alerts requests rotate over (a cache of one key proves nothing)
const keys = psql(
  BENCH_URL,
  `SELECT i.key FROM incidents i JOIN issue_types t ON t.id = i.issue_type_id AND t.code = 'incident'
    ORDER BY md5(i.key::text) LIMIT 2000`,
)
  .split('\n')
  .map(Number);
// the demo's incident with 10,000 alerts (see apps/server/src/demo/alerts.ts)
const heavyKey = Number(
  psql(
    BENCH_URL,
    `SELECT i.key FROM incidents i JOIN issue_types t ON t.id = i.issue_type_id AND t.code = 'incident'
      WHERE i.system_id = (SELECT min(id) FROM systems) ORDER BY i.created DESC, i.key DESC LIMIT 1`,
  ),
);
const systemIds = psql(BENCH_URL, 'SELECT id FROM systems ORDER BY id').split('\n').map(Number);
let systemTurn = 0;
const nextSystem = () => systemIds[systemTurn++ % systemIds.length];
const now = Date.now();
const day = 86_400_000;
let turn = 0;
const nextKey = () => keys[turn++ % keys.length];

/**
 * The endpoints of the table. `path` is a string or a function (a new path per request);
 * `as` the user; targets: `p95` (ms, under load), `rps` (req/s), `p95single` (ms, one client).
 */
const endpoints = [
  {
    name: 'sign-in (argon2)',
    method: 'POST',
    path: '/auth/token/obtain/',
    body: JSON.stringify({ username: 'analyst', password: PASSWORD }),
    connections: SIGN_IN_CONNECTIONS,
  },
  { name: 'list: analyst, -created', path: '/soc/incs/?limit=40&ordering=-created', as: 'analyst', p95: 50 },
  {
    name: 'list: customer, -created',
    path: '/soc/incs/?limit=40&ordering=-created',
    as: 'customer',
    p95: 50,
  },
  {
    name: 'list: status filter, -priority',
    path: '/soc/incs/?limit=40&ordering=-priority&status__in=waiting_for_customer,work_in_progress',
    as: 'analyst',
    p95: 50,
  },
  {
    name: 'list: critical, -updated',
    path: '/soc/incs/?limit=40&ordering=-updated&priority__in=critical',
    as: 'customer',
    p95: 50,
  },
  {
    name: 'list: last 7 days, created',
    path: `/soc/incs/?limit=40&ordering=created&created__gte=${now - 7 * day}&created__lte=${now}`,
    as: 'analyst',
    p95: 50,
  },
  {
    name: 'list: search "LSASS"',
    path: '/soc/incs/?limit=40&ordering=-created&search=LSASS',
    as: 'analyst',
    p95: 50,
  },
  {
    name: 'list: deep page (offset 10,000)',
    path: '/soc/incs/?limit=40&offset=10000&ordering=-created',
    as: 'analyst',
    p95: 50,
  },
  { name: 'incident card', path: () => `/soc/incs/${nextKey()}/`, as: 'analyst', p95: 50, rps: 1500 },
  { name: 'comments', path: () => `/soc/incs/${nextKey()}/comments/`, as: 'analyst', p95: 50 },
  {
    name: 'alerts of an incident, page 1',
    path: () => `/soc/incs/${nextKey()}/alerts/?page=1`,
    as: 'analyst',
    p95: 50,
  },
  {
    name: 'alerts: 10,000-alert incident, page 1',
    path: `/soc/incs/${heavyKey}/alerts/?page=1`,
    as: 'customer0',
    p95: 50,
  },
  { name: 'alerts page (/soc/alerts/)', path: '/soc/alerts/?page=1', as: 'customer', p95: 50 },
  ...[7, 30, 180].map((days) => ({
    name: `analytics ${days} days`,
    path: `/soc/incs/analytics/?created__gte=${now - days * day}&created__lte=${now}`,
    as: 'analyst',
    p95single: days === 30 ? 150 : undefined,
  })),
  // the SOC's triage queue (issue 41): every tenant's open incidents that wait, by SLA deadline
  { name: 'queue: by SLA deadline', path: '/analyst/queue/?limit=40', as: 'analyst', p95: 50 },
  {
    name: 'queue: one tenant, -priority',
    path: () => `/analyst/queue/?limit=40&ordering=-priority&system__in=${nextSystem()}`,
    as: 'analyst',
    p95: 50,
  },
  {
    name: 'queue: unassigned, SLA breached',
    path: '/analyst/queue/?limit=40&soc_assignee__isnull=true&sla_state__in=breached',
    as: 'analyst',
    p95: 50,
  },
  { name: 'queue: counts per tenant', path: '/analyst/queue/counts/', as: 'analyst' },
  { name: 'rules list', path: '/soc/rules/?page=1', as: 'customer', p95: 50 },
  { name: 'MITRE coverage (rules)', path: '/soc/rules/coverage/', as: 'customer' },
  { name: 'MITRE matrix', path: '/soc/mitre_matrix/', as: 'customer' },
].filter((e) => !ONLY.length || ONLY.some((o) => e.name.includes(o)));

/**
 * The mix of the scale-out model: how often a session asks for each kind of endpoint (an
 * assumption, stated in docs/performance.md): the list on every visit and filter change, an
 * incident's card with its comments and alerts when one is opened, the dashboard's analytics,
 * rules and MITRE pages now and then, a sign-in per session.
 */
const MIX = [
  { name: 'lists', weight: 40, match: (n) => n.startsWith('list') },
  { name: 'card', weight: 20, match: (n) => n === 'incident card' },
  { name: 'comments', weight: 10, match: (n) => n === 'comments' },
  { name: 'alerts', weight: 15, match: (n) => n.startsWith('alerts') },
  { name: 'analytics', weight: 5, match: (n) => n.startsWith('analytics') },
  { name: 'rules and MITRE', weight: 8, match: (n) => n.startsWith('rules') || n.startsWith('MITRE') },
  { name: 'sign-in', weight: 2, match: (n) => n.startsWith('sign-in') },
];

const pathOf = (e) => `/api/v0${typeof e.path === 'function' ? e.path() : e.path}`;

/**
 * CPU time used from now on by `pids()` (re-listed every 250 ms): `stop()` resolves to the sum
 * in ms. A process first listed after the start counts from zero (it was born during the run),
 * one that is gone keeps its last reading.
 */
function cpuOf(pids) {
  const seen = new Map();
  const sample = async (first) => {
    for (const pid of await pids()) {
      const now = cpuMs(pid);
      if (now === undefined) continue;
      const known = seen.get(pid);
      if (known) known.last = now;
      else seen.set(pid, { from: first ? now : 0, last: now });
    }
  };
  let timer;
  let polling = Promise.resolve();
  const tick = () => {
    polling = polling.then(() => sample(false)).catch(() => undefined);
    timer = setTimeout(tick, 250);
  };
  return {
    start: async () => {
      await sample(true);
      timer = setTimeout(tick, 250);
    },
    stop: async () => {
      clearTimeout(timer);
      await polling;
      await sample(false);
      let sum = 0;
      for (const { from, last } of seen.values()) sum += last - from;
      return sum;
    },
  };
}

/**
 * One autocannon run: req/s, client-side latency percentiles of every response, peak RSS, bytes
 * per response, and the CPU per response of the API process, of its PostgreSQL backends, of every
 * postgres process and of this (the load generator's) process.
 */
async function load(server, e, token, monitor) {
  const latencies = [];
  let bytes = 0;
  let peak = server.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const backends = cpuOf(async () =>
    (
      await monitor.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [server.appName])
    ).rows.map((r) => r.pid),
  );
  const allPostgres = cpuOf(async () => postgresPids());
  const onPath = cpuOf(async () => PATH_PIDS);
  await backends.start();
  await allPostgres.start();
  await onPath.start();
  const api = cpuMs(server.pid);
  const self = process.cpuUsage();
  const started = performance.now();
  const instance = autocannon({
    url: server.url,
    connections: e.connections ?? CONNECTIONS,
    duration: DURATION,
    headers,
    requests: [
      {
        method: e.method ?? 'GET',
        body: e.body,
        setupRequest: (req) => ({ ...req, path: pathOf(e) }),
      },
    ],
  });
  instance.on('response', (_client, _status, resBytes, time) => {
    latencies.push(time);
    bytes += resBytes;
  });
  const result = await instance;
  const wallMs = performance.now() - started;
  const apiMs = cpuMs(server.pid) - api;
  const selfUsage = process.cpuUsage(self);
  const pgMs = await backends.stop();
  const allPgMs = await allPostgres.stop();
  const pathMs = await onPath.stop();
  clearInterval(sampler);
  const s = stats(latencies);
  const n = latencies.length || 1;
  return {
    rps: result.requests.total / (result.duration || DURATION),
    errors: result.non2xx + result.errors + result.timeouts,
    ...s,
    rssMb: peak,
    responses: latencies.length,
    bytes: bytes / n,
    cpu: {
      api: apiMs / n,
      pg: pgMs / n,
      allPg: allPgMs / n,
      bench: (selfUsage.user + selfUsage.system) / 1000 / n,
      path: pathMs / n,
      // cores kept busy on average over the run
      apiCores: apiMs / wallMs,
      pgCores: pgMs / wallMs,
    },
  };
}

/** The bytes a file gained after offset `from`. */
function readFrom(file, from) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, statSync(file).size - from));
    readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * PostgreSQL's own time for one request, median over 7 single requests: `exec` sums the
 * auto_explain execution times (EXPLAIN ANALYZE) of its statements; `total` sums the durations
 * PostgreSQL logs for each protocol step (parse, bind, which plans an unnamed statement, and
 * execute; or a simple statement), i.e. planning included, network excluded.
 */
async function dbTime(url, e, token) {
  const samples = [];
  const db = new URL(BENCH_URL).pathname.slice(1);
  const one = async () => {
    const res = await fetch(`${url}${pathOf(e)}`, {
      method: e.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: e.body,
    });
    await res.arrayBuffer();
  };
  await one();
  for (let i = 0; i < 7; i++) {
    const from = statSync(PG_LOG).size;
    await one();
    await new Promise((r) => setTimeout(r, 30));
    const text = readFrom(PG_LOG, from);
    const sample = { exec: 0, total: 0, statements: 0 };
    for (const m of text.matchAll(
      /\] \S+@(\S+) LOG: {2}duration: ([\d.]+) ms {2}(plan|parse|bind|execute|statement)\b/g,
    )) {
      if (m[1] !== db) continue;
      if (m[3] === 'plan') {
        sample.exec += Number(m[2]);
        sample.statements += 1;
      } else sample.total += Number(m[2]);
    }
    samples.push(sample);
  }
  const median = (k) => samples.map((x) => x[k]).sort((a, b) => a - b)[3];
  return { exec: median('exec'), total: median('total'), statements: median('statements') };
}

const tokensOf = async (url) => ({
  analyst: await signIn(url, 'analyst'),
  // a customer of two systems (of 50)
  customer: await signIn(url, 'carol'),
  // a customer of the first system, which holds the 10,000-alert incident
  customer0: await signIn(url, 'alice'),
});

const rows = [];
const server = await startServer({ CSV_SYNC_MAX_ROWS: '200000' });
// the connection that finds the server's backends in pg_stat_activity
const monitor = new pg.Client({ connectionString: BENCH_URL, application_name: 'soc-bench-monitor' });
await monitor.connect();
let csv;
try {
  const tokens = await tokensOf(server.url);
  for (const e of endpoints) {
    const token = e.as ? tokens[e.as] : undefined;
    const single = e.method
      ? null
      : await timeGets(`${server.url}${pathOf(e)}`, token, 20, 3).catch((err) => {
          throw new Error(`${e.name}: ${err.message}`);
        });
    const r = await load(server, e, token, monitor);
    rows.push({ e, single, r });
    process.stdout.write(`measured ${e.name}: ${r.rps.toFixed(0)} req/s, ${r.errors} errors\n`);
  }

  if (!ONLY.length || ONLY.includes('csv')) {
    // the CSV export: the newest 100,000 incidents (a fifth of a small set), streamed
    const rowsWanted = Math.min(100_000, Math.floor(incidents / 5));
    const cutoff = psql(
      BENCH_URL,
      `SELECT (extract(epoch FROM created) * 1000)::bigint FROM incidents ORDER BY created DESC OFFSET ${rowsWanted - 1} LIMIT 1`,
    );
    const before = server.rssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 100);
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v0/soc/incs/get_csv/?created__gte=${cutoff}&language=en`, {
      headers: { authorization: `Bearer ${tokens.analyst}` },
    });
    const text = await res.text();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (!res.ok) throw new Error(`CSV: ${res.status} ${text.slice(0, 200)}`);
    const lines = text.split('\n').filter(Boolean).length - 1;
    csv = { lines, seconds, before, peak };
  }
} finally {
  await monitor.end();
  await server.stop();
}

// the same requests once more, one at a time, on a server whose sessions log their plans
let logReadable = true;
try {
  accessSync(PG_LOG, constants.R_OK);
} catch {
  logReadable = false;
  console.log(`\n${PG_LOG} is not readable here: no database times (set BENCH_PG_LOG)`);
}
// a pooler in front of PostgreSQL (PgBouncer) refuses the startup options this server needs
const capture = logReadable
  ? await startServer({
      PGOPTIONS: [
        '-c session_preload_libraries=auto_explain',
        '-c auto_explain.log_min_duration=0',
        '-c auto_explain.log_analyze=on',
        '-c auto_explain.log_timing=off',
        '-c auto_explain.log_format=text',
        '-c log_min_duration_statement=0',
      ].join(' '),
    }).catch((err) => {
      console.log(`\nno database times: the server with auto_explain did not start (${err.message.trim()})`);
      return undefined;
    })
  : undefined;
if (!capture) logReadable = false;
for (const row of rows) row.db = { exec: NaN, total: NaN, statements: 0 };
if (capture)
  try {
    const tokens = await tokensOf(capture.url);
    for (const row of rows)
      row.db = await dbTime(capture.url, row.e, row.e.as ? tokens[row.e.as] : undefined);
  } finally {
    await capture.stop();
  }

console.log(
  `\nLoad table: ${incidents.toLocaleString('en')} incidents, ${alertsTotal.toLocaleString('en')} alerts; ` +
    `autocannon ${DURATION} s per endpoint; latency seen by the client; RSS = server peak during the run; ` +
    `1-client p50 = sequential requests on the idle server; DB exec = summed EXPLAIN ANALYZE execution time ` +
    `(auto_explain) of the request's statements; DB total = parse + plan + execute as PostgreSQL logs them; ` +
    `medians of 7 single requests; CPU/req = CPU time (user + system) over the run per response: API = the ` +
    `server process, PG = its PostgreSQL backends (by application_name), all PG = every postgres process; ` +
    `bytes = read by autocannon per response, headers included`,
);
console.log(
  '| endpoint | conc. | req/s | p50 | p95 | p99 | RSS | API CPU/req | PG CPU/req | all PG CPU/req | bytes/resp | 1-client p50 | DB exec (stmts) | DB total | p50 / exec | p50 / total | targets | pass |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const cpu = (v) => `${v.toFixed(3)} ms`;
let failures = 0;
const ratio = (single, dbMs) => (single && dbMs > 0 ? `${(single.p50 / dbMs).toFixed(1)}×` : '–');
for (const { e, single, r, db } of rows) {
  const checks = [];
  const check = (label, ok) => {
    checks.push(ok ? label : `✗ ${label}`);
    if (!ok) failures += 1;
    return ok;
  };
  let pass = true;
  if (e.p95) pass = check(`p95 < ${e.p95} ms`, r.p95 < e.p95) && pass;
  if (e.rps) pass = check(`≥ ${e.rps} req/s`, r.rps >= e.rps) && pass;
  if (e.p95single) pass = check(`1-client p95 < ${e.p95single} ms`, single.p95 < e.p95single) && pass;
  pass = check('p99 < 1 s', r.p99 < 1000) && pass;
  if (single && logReadable)
    pass = check('1-client p50 ≤ 1.5 × DB total + 2 ms', single.p50 <= 1.5 * db.total + 2) && pass;
  if (r.errors) pass = check(`${r.errors} errors`, false) && pass;
  console.log(
    `| ${e.name} | ${e.connections ?? CONNECTIONS} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ` +
      `${r.rssMb.toFixed(0)} MB | ${cpu(r.cpu.api)} | ${cpu(r.cpu.pg)} | ${cpu(r.cpu.allPg)} | ` +
      `${Math.round(r.bytes).toLocaleString('en')} | ${single ? ms(single.p50) : '–'} | ${ms(db.exec)} (${db.statements}) | ${ms(db.total)} | ` +
      `${ratio(single, db.exec)} | ${ratio(single, db.total)} | ${checks.join('; ')} | ${pass ? 'pass' : 'FAIL'} |`,
  );
}
if (csv) {
  const rate = csv.lines / csv.seconds;
  const ok = rate >= 50_000 && csv.peak - csv.before < 100;
  if (!ok) failures += 1;
  console.log(
    `\nCSV export: ${csv.lines.toLocaleString('en')} rows in ${csv.seconds.toFixed(2)} s = ` +
      `${Math.round(rate).toLocaleString('en')} rows/s; RSS ${csv.before.toFixed(0)} → peak ${csv.peak.toFixed(0)} MB ` +
      `(targets ≥ 50,000 rows/s, growth < 100 MB): ${ok ? 'pass' : 'FAIL'}`,
  );
}
printModel(rows);
console.log(`\n${failures} target(s) missed`);

/**
 * The scale-out model of docs/performance.md ("Scaling out"), from this run's CPU per request:
 * N API instances on hosts of their own in front of one PostgreSQL of C cores serve at most
 * X(N, C) = min(N × 1000 / api, C × 1000 / pg) requests per second (api, pg: ms of CPU per request;
 * one instance is one Node.js event loop, i.e. one core). PostgreSQL becomes the limit from
 * N* = C × api / pg instances on. The mix weighs the endpoints by how often a session of the
 * portal asks for them (MIX below); its CPU per request is the weighted sum.
 */
function printModel(measured) {
  const ns = [1, 2, 4, 8];
  const cs = [2, 4, 8, 16];
  const rps = (api, pg, n, c) => Math.min((n * 1000) / api, (c * 1000) / pg);
  const fmt = (v) => Math.round(v).toLocaleString('en');
  console.log(
    `\nScale-out model: X(N, C) = min(N × 1000 / API, C × 1000 / PG) req/s; N* = C × API / PG ` +
      `(instances from which a PostgreSQL of C cores is the limit); load generator CPU/req for reference; ` +
      `path = BENCH_PATH_PIDS (${PATH_PIDS.join(', ') || 'none'}), not in the model`,
  );
  console.log(
    `| endpoint | API CPU/req | PG CPU/req | load gen CPU/req | path CPU/req | API cores busy | PG cores busy | 1 instance (1 core) | per PG core | N=1, C=1 | ${cs.map((c) => `N* (C=${c})`).join(' | ')} |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|---|${cs.map(() => '---').join('|')}|`);
  for (const { e, r } of measured) {
    const { api, pg, bench, path, apiCores, pgCores } = r.cpu;
    console.log(
      `| ${e.name} | ${cpu(api)} | ${cpu(pg)} | ${cpu(bench)} | ${PATH_PIDS.length ? cpu(path) : '–'} | ${apiCores.toFixed(2)} | ${pgCores.toFixed(2)} | ` +
        `${fmt(1000 / api)} | ${fmt(1000 / pg)} | ${fmt(rps(api, pg, 1, 1))} | ` +
        `${cs.map((c) => ((c * api) / pg).toFixed(1)).join(' | ')} |`,
    );
  }
  // the mix: weights of groups of endpoints, shared evenly by the group's measured rows
  const groups = measured.reduce((acc, { e }) => {
    const g = MIX.find((m) => m.match(e.name));
    if (g) acc.set(g, (acc.get(g) ?? 0) + 1);
    return acc;
  }, new Map());
  const total = [...groups.keys()].reduce((sum, g) => sum + g.weight, 0);
  if (!total) return;
  let api = 0;
  let pg = 0;
  for (const { e, r } of measured) {
    const g = MIX.find((m) => m.match(e.name));
    if (!g) continue;
    const w = g.weight / total / groups.get(g);
    api += w * r.cpu.api;
    pg += w * r.cpu.pg;
  }
  console.log(
    `\nMix (${[...groups.keys()].map((g) => `${g.name} ${((100 * g.weight) / total).toFixed(0)} %`).join(', ')}): ` +
      `API ${cpu(api)}, PG ${cpu(pg)} per request; req/s for N instances × PostgreSQL of C cores (PG-bound in bold):`,
  );
  console.log(`| N \\ C | ${cs.join(' | ')} |`);
  console.log(`|---|${cs.map(() => '---').join('|')}|`);
  for (const n of ns)
    console.log(
      `| ${n} | ${cs
        .map((c) => {
          const x = rps(api, pg, n, c);
          return (c * 1000) / pg <= (n * 1000) / api ? `**${fmt(x)}**` : fmt(x);
        })
        .join(' | ')} |`,
    );
}
