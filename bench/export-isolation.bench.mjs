// Issue 25 item 11: do 20 concurrent CSV exports by one customer (tenant A) slow down another
// tenant's incident list? Tenant B's list p95 is measured idle, then while 20 clients of tenant A
// export CSV as fast as the server lets them, on the production build over PostgreSQL: once with
// the route limits on (their defaults) and once with them lifted (RATE_LIMIT_EXPORT_* = 0). Target:
// B's p95 under the exports stays within 2 × its idle p95 with the limits on.
//
// The data set is the demo's size (BENCH_INCIDENTS, default 5,000 incidents, 5 systems, 20 users)
// in its own database (BENCH_DATABASE_URL, default soc_bench_isolation), generated on first use.
// All traffic goes to 127.0.0.1; each phase lasts BENCH_DURATION seconds (default 10) and the
// exports are capped at BENCH_MAX_EXPORTS a phase (default 2,000). The exporting clients behave as
// a browser does: a 429 makes them wait for its Retry-After (at most until the phase ends).
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';

const DB = 'soc_bench_isolation';
process.env.BENCH_DATABASE_URL ??= existsSync('/var/run/postgresql/.s.PGSQL.5432')
  ? `postgres:///${DB}?host=/var/run/postgresql&user=postgres`
  : `postgres://postgres@127.0.0.1:5432/${DB}`;
const { BENCH_URL, ensureDataSet, ms, psql, signIn, startServer, stats } = await import('./support.mjs');

const N = Number(process.env.BENCH_INCIDENTS ?? 5_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const MAX_EXPORTS = Number(process.env.BENCH_MAX_EXPORTS ?? 2_000);
const EXPORTERS = 20;
/** Tenant B's own traffic on its list: a few browser tabs. */
const B_CONNECTIONS = 4;
const LIST = '/api/v0/soc/incs/?limit=40&ordering=-created';
const CSV = '/api/v0/soc/incs/get_csv/?ordering=-created&language=en';

const data = ensureDataSet({ incidents: N, systems: 5, users: 20 });
if (data.generated) console.log(`generated ${N} incidents in ${data.seconds.toFixed(0)} s`);
const incidents = Number(psql(BENCH_URL, 'SELECT count(*) FROM incidents'));
// alice is a customer of the first system (tenant A), bob of the second (tenant B)
const perSystem = (user) =>
  Number(
    psql(
      BENCH_URL,
      `SELECT count(*) FROM incidents WHERE system_id IN
         (SELECT s.system_id FROM user_systems s JOIN users u ON u.id = s.user_id WHERE u.username = '${user}')`,
    ),
  );
const aRows = perSystem('alice');
const bRows = perSystem('bob');

/** Tenant B's list under autocannon for DURATION seconds: client-side latencies of every answer. */
async function listOfB(url, token) {
  const latencies = [];
  const instance = autocannon({
    url: `${url}${LIST}`,
    connections: B_CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${token}` },
  });
  instance.on('response', (_client, _status, _bytes, time) => latencies.push(time));
  const result = await instance;
  return {
    ...stats(latencies),
    rps: result.requests.total / (result.duration || DURATION),
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/** 20 clients of tenant A exporting CSV until `until`; counts of finished and refused exports. */
async function exportsOfA(url, token, until) {
  const counts = { done: 0, refused: 0, failed: 0 };
  let started = 0;
  const client = async () => {
    while (Date.now() < until && started < MAX_EXPORTS) {
      started += 1;
      const res = await fetch(`${url}${CSV}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.ok) counts.done += 1;
      else if (res.status === 429) {
        counts.refused += 1;
        const wait = Number(res.headers.get('retry-after') ?? 1) * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(wait, until - Date.now()))));
      } else counts.failed += 1;
    }
  };
  await Promise.all(Array.from({ length: EXPORTERS }, client));
  return counts;
}

async function scenario(label, env) {
  const server = await startServer(env);
  try {
    const a = await signIn(server.url, 'alice');
    const b = await signIn(server.url, 'bob');
    // warm-up: plans, caches and the first CSV
    await listOfB(server.url, b).catch(() => undefined);
    const idle = await listOfB(server.url, b);
    const until = Date.now() + DURATION * 1000;
    const [loaded, exports] = await Promise.all([listOfB(server.url, b), exportsOfA(server.url, a, until)]);
    return { label, idle, loaded, exports };
  } finally {
    await server.stop();
  }
}

const lifted = { RATE_LIMIT_EXPORT_PER_USER: '0', RATE_LIMIT_EXPORT_PER_SYSTEM: '0' };
const results = [
  await scenario('limits on (defaults: 5 a minute per user, 15 per system)', {}),
  await scenario('limits lifted', lifted),
];

console.log(
  `\nExport isolation: ${incidents.toLocaleString('en')} incidents (tenant A ${aRows.toLocaleString('en')}, ` +
    `tenant B ${bRows.toLocaleString('en')}); tenant B's list (${LIST}) under autocannon, ${B_CONNECTIONS} ` +
    `connections, ${DURATION} s a phase; ${EXPORTERS} clients of tenant A export CSV (all of A's incidents) ` +
    `during the second phase, waiting out a 429's Retry-After`,
);
console.log(
  '| limits | B list p50 idle | B list p95 idle | B list p50 under exports | B list p95 under exports | p95 ratio | B req/s idle → under | A exports done | A exports refused (429) | ≤ 2× |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
let failures = 0;
for (const { label, idle, loaded, exports } of results) {
  const ratio = loaded.p95 / idle.p95;
  const ok = ratio <= 2 && !idle.errors && !loaded.errors && !exports.failed;
  if (label.startsWith('limits on') && !ok) failures += 1;
  console.log(
    `| ${label} | ${ms(idle.p50)} | ${ms(idle.p95)} | ${ms(loaded.p50)} | ${ms(loaded.p95)} | ${ratio.toFixed(2)}× | ` +
      `${idle.rps.toFixed(0)} → ${loaded.rps.toFixed(0)} | ${exports.done} | ${exports.refused} | ` +
      `${ok ? 'yes' : 'no'}${exports.failed ? ` (${exports.failed} failed exports)` : ''}${idle.errors + loaded.errors ? ` (${idle.errors + loaded.errors} list errors)` : ''} |`,
  );
}
console.log(`\n${failures} target(s) missed (the target applies with the limits on)`);
process.exit(failures ? 1 : 0);
