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
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import autocannon from 'autocannon';
import {
  BENCH_URL,
  PASSWORD,
  ensureDataSet,
  ms,
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
  { name: 'rules list', path: '/soc/rules/?page=1', as: 'customer', p95: 50 },
  { name: 'MITRE coverage (rules)', path: '/soc/rules/coverage/', as: 'customer' },
  { name: 'MITRE matrix', path: '/soc/mitre_matrix/', as: 'customer' },
].filter((e) => !ONLY.length || ONLY.some((o) => e.name.includes(o)));

const pathOf = (e) => `/api/v0${typeof e.path === 'function' ? e.path() : e.path}`;

/** One autocannon run: req/s, client-side latency percentiles of every response, peak RSS. */
async function load(server, e, token) {
  const latencies = [];
  let peak = server.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
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
  instance.on('response', (_client, _status, _bytes, time) => latencies.push(time));
  const result = await instance;
  clearInterval(sampler);
  const s = stats(latencies);
  return {
    rps: result.requests.total / (result.duration || DURATION),
    errors: result.non2xx + result.errors + result.timeouts,
    ...s,
    rssMb: peak,
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
    const r = await load(server, e, token);
    rows.push({ e, single, r });
    process.stdout.write(`measured ${e.name}: ${r.rps.toFixed(0)} req/s\n`);
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
const capture = await startServer({
  PGOPTIONS: [
    '-c session_preload_libraries=auto_explain',
    '-c auto_explain.log_min_duration=0',
    '-c auto_explain.log_analyze=on',
    '-c auto_explain.log_timing=off',
    '-c auto_explain.log_format=text',
    '-c log_min_duration_statement=0',
  ].join(' '),
});
try {
  const tokens = await tokensOf(capture.url);
  for (const row of rows)
    row.db = logReadable
      ? await dbTime(capture.url, row.e, row.e.as ? tokens[row.e.as] : undefined)
      : { exec: NaN, total: NaN, statements: 0 };
} finally {
  await capture.stop();
}

console.log(
  `\nLoad table: ${incidents.toLocaleString('en')} incidents, ${alertsTotal.toLocaleString('en')} alerts; ` +
    `autocannon ${DURATION} s per endpoint; latency seen by the client; RSS = server peak during the run; ` +
    `1-client p50 = sequential requests on the idle server; DB exec = summed EXPLAIN ANALYZE execution time ` +
    `(auto_explain) of the request's statements; DB total = parse + plan + execute as PostgreSQL logs them; ` +
    `medians of 7 single requests`,
);
console.log(
  '| endpoint | conc. | req/s | p50 | p95 | p99 | RSS | 1-client p50 | DB exec (stmts) | DB total | p50 / exec | p50 / total | targets | pass |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
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
      `${r.rssMb.toFixed(0)} MB | ${single ? ms(single.p50) : '–'} | ${ms(db.exec)} (${db.statements}) | ${ms(db.total)} | ` +
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
console.log(`\n${failures} target(s) missed`);
