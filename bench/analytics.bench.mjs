// Dashboard analytics on 1,000,000 incidents in PostgreSQL (issue 6 targets: 30 days of one
// system < 150 ms, 180 days of all systems < 500 ms, exact numbers), plus the EPS and MITRE calls.
// BENCH_INCIDENTS=N uses (or makes) a smaller set; BENCH_DATABASE_URL picks another database.
import { ensureDataSet, ms, psql, BENCH_URL, signIn, startServer, timeGets } from './support.mjs';
import { ATTACK_STIX_PATH } from '../scripts/data-paths.mjs';

const N = Number(process.env.BENCH_INCIDENTS ?? 1_000_000);
const data = ensureDataSet({ incidents: N, systems: 50, users: 2000 });
if (data.generated) console.log(`generated ${N} incidents in ${data.seconds.toFixed(0)} s`);
psql(BENCH_URL, 'ANALYZE');
const total = Number(psql(BENCH_URL, 'SELECT count(*) FROM incidents'));

const server = await startServer(ATTACK_STIX_PATH === undefined ? {} : { ATTACK_STIX_PATH });
let failed = false;
try {
  // alice: a customer of one system; analyst: all systems
  const users = { alice: await signIn(server.url, 'alice'), analyst: await signIn(server.url, 'analyst') };
  const now = Date.now();
  const day = 86_400_000;
  // the dashboard's own ranges: local midnight to the end of today (here UTC), as the web sends them
  const endOfToday = Math.floor(now / day) * day + day - 1;
  const range = (days) => `created__gte=${endOfToday + 1 - days * day}&created__lte=${endOfToday}`;
  const cases = [
    { who: 'alice', name: '30 days, one system', query: `${range(30)}&get_prev=True`, target: 150 },
    {
      who: 'analyst',
      name: '30 days, one system (system__in)',
      query: `${range(30)}&system__in=1&get_prev=True`,
      target: 150,
    },
    { who: 'analyst', name: '180 days, all systems', query: `${range(180)}&get_prev=True`, target: 500 },
    { who: 'alice', name: '180 days, one system', query: `${range(180)}&get_prev=True`, target: 500 },
    {
      who: 'analyst',
      name: '7 days, all systems, priority=critical (counted over incidents)',
      query: `${range(7)}&priority__in=critical`,
      target: 500,
    },
  ];
  console.log(
    `\nDashboard analytics, ${total.toLocaleString('en')} incidents; sequential requests, latency seen by the client`,
  );
  console.log('| caller | range | p50 | p95 | p99 | target (p95) |');
  console.log('|---|---|---|---|---|---|');
  for (const c of cases) {
    const s = await timeGets(`${server.url}/api/v0/soc/incs/analytics/?${c.query}`, users[c.who], 20);
    if (s.p95 >= c.target) failed = true;
    console.log(`| ${c.who} | ${c.name} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | < ${c.target} ms |`);
  }

  // exactness: the 180-day answer against a plain count over the incidents
  const res = await fetch(`${server.url}/api/v0/soc/incs/analytics/?${range(180)}`, {
    headers: { authorization: `Bearer ${users.analyst}` },
  });
  const a = await res.json();
  const from = new Date(endOfToday + 1 - 180 * day).toISOString();
  const to = new Date(endOfToday).toISOString();
  const [count, critical, breached] = psql(
    BENCH_URL,
    `SELECT count(*), count(*) FILTER (WHERE priority = 'critical'), count(*) FILTER (WHERE sla_breached)
       FROM incidents WHERE created >= '${from}' AND created <= '${to}'`,
  )
    .split('|')
    .map(Number);
  const exact = a.count === count && a.critical_count === critical && a.sla_breached_count === breached;
  if (!exact) failed = true;
  console.log(
    `exactness (180 days): count ${a.count}/${count}, critical ${a.critical_count}/${critical}, breached ${a.sla_breached_count}/${breached} → ${exact ? 'exact' : 'MISMATCH'}`,
  );

  console.log('\nOther dashboard calls');
  console.log('| caller | call | p50 | p95 |');
  console.log('|---|---|---|---|');
  for (const [who, url] of [
    ['alice', `/api/v0/soc/dashboards/eps/?${range(30)}`],
    ['analyst', `/api/v0/soc/dashboards/eps/?${range(60)}`],
    ['alice', '/api/v0/soc/mitre_matrix/'],
  ]) {
    const s = await timeGets(`${server.url}${url}`, users[who], 10);
    console.log(`| ${who} | ${url.split('?')[0]} | ${ms(s.p50)} | ${ms(s.p95)} |`);
  }
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
