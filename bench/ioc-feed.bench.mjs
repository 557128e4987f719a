// The IOC feed (issue 29 §3) as a blocking tool polls it: a personal API token, If-None-Match with
// the ETag of its copy. Prints the 304 answers/s of an unchanged feed (what a poll every minute
// costs) and the 200 answers/s of a page, on a small demo data set in PostgreSQL.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';
import { ADMIN_URL, PASSWORD, ROOT, psql, signIn, startServer, stats } from './support.mjs';

const URL_ =
  process.env.BENCH_IOC_FEED_DATABASE_URL ??
  (existsSync('/var/run/postgresql/.s.PGSQL.5432')
    ? 'postgres:///soc_bench_ioc_feed?host=/var/run/postgresql&user=postgres'
    : 'postgres://postgres@127.0.0.1:5432/soc_bench_ioc_feed');
const INCIDENTS = Number(process.env.BENCH_IOC_FEED_INCIDENTS ?? 5000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

let have = -1;
try {
  have = Number(psql(URL_, 'SELECT count(*) FROM incidents'));
} catch {
  try {
    psql(ADMIN_URL, `CREATE DATABASE ${new URL(URL_).pathname.slice(1)}`);
  } catch {
    // exists without the schema yet
  }
}
if (have < INCIDENTS) {
  console.log(`Generating the demo data set (${INCIDENTS} incidents)…`);
  const r = spawnSync(
    process.execPath,
    ['apps/server/dist/demo-cli.js', '--incidents', String(INCIDENTS), '--reset'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: URL_, NODE_ENV: 'development' },
    },
  );
  if (r.status !== 0) throw new Error('data generation failed');
}
console.log(
  `incidents: ${psql(URL_, 'SELECT count(*) FROM incidents')}, listing IOCs: ${psql(
    URL_,
    `SELECT count(*) FROM incidents WHERE observed_iocs <> '[]'::jsonb`,
  )}, IOC entries: ${psql(URL_, 'SELECT coalesce(sum(jsonb_array_length(observed_iocs)), 0) FROM incidents')}`,
);

/** CONNECTIONS clients for DURATION s on `path` with `headers`: answers/s by status and latencies. */
async function load(url, path, headers) {
  const latencies = [];
  const statuses = {};
  const instance = autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers,
  });
  instance.on('response', (_client, status, _bytes, time) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies.push(time);
  });
  const r = await instance;
  return { rps: r.requests.total / r.duration, statuses, bytes: r.throughput.average, ...stats(latencies) };
}

const server = await startServer({ DATABASE_URL: URL_ });
try {
  const session = await signIn(server.url, 'alice');
  const created = await fetch(`${server.url}/api/v0/auth/tokens/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench ${Date.now()}`, password: PASSWORD }),
  });
  if (created.status !== 201) throw new Error(`token: ${created.status} ${await created.text()}`);
  const { token, id } = await created.json();
  const auth = { authorization: `Bearer ${token}` };
  const feeds = {
    'STIX, whole feed': '/api/v0/soc/iocs/feed/',
    'text, IPv4': '/api/v0/soc/iocs/feed/?format=txt&ioc_type__in=ipv4',
    'CSV, page of 100': '/api/v0/soc/iocs/feed/?format=csv&limit=100',
  };
  const rows = [];
  for (const [name, path] of Object.entries(feeds)) {
    const first = await fetch(`${server.url}${path}`, { headers: auth });
    const body = await first.text();
    if (first.status !== 200) throw new Error(`${path}: ${first.status} ${body}`);
    const etag = first.headers.get('etag');
    // 304s first: the slow 200s of a large page would still be running on the server after their load
    const unchanged = await load(server.url, path, { ...auth, 'if-none-match': etag });
    const fresh = await load(server.url, path, auth);
    rows.push({ name, size: body.length, fresh, unchanged });
  }
  const fmt = (r) =>
    `${r.rps.toFixed(0).padStart(6)}/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  ${JSON.stringify(r.statuses)}`;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, personal API token of a customer (alice)`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(18)} ${String(r.size).padStart(8)} B  200: ${fmt(r.fresh)}`);
    console.log(`${''.padEnd(18)} ${''.padStart(8)}    304: ${fmt(r.unchanged)}`);
  }
  await fetch(`${server.url}/api/v0/auth/tokens/${id}/`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${session}` },
  });
} finally {
  await server.stop();
}
