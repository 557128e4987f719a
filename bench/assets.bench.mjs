// Asset inventory search on 100,000 assets in PostgreSQL: search over name, IP address and FQDN
// (ILIKE '%text%') must be served by the trigram index cmdb_assets_search_trgm, and the list's
// filters and orderings by btree indexes. Prints p50/p95 of the list calls and the plans.
import { spawnSync } from 'node:child_process';
import { ADMIN_URL, ROOT, ms, psql, signIn, startServer, timeGets } from './support.mjs';

const URL_ = process.env.BENCH_ASSETS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/soc_bench_assets';
const N = Number(process.env.BENCH_ASSETS ?? 100_000);

let have = -1;
try {
  have = Number(psql(URL_, 'SELECT count(*) FROM cmdb_assets'));
} catch {
  try {
    psql(ADMIN_URL, `CREATE DATABASE ${new URL(URL_).pathname.slice(1)}`);
  } catch {
    // exists without the schema yet
  }
}
if (have < 0) {
  console.log('Generating a small demo data set (schema, systems, users)…');
  const r = spawnSync(process.execPath, ['apps/server/dist/demo-cli.js', '--incidents', '2000', '--reset'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: URL_, NODE_ENV: 'development' },
  });
  if (r.status !== 0) throw new Error('data generation failed');
  have = Number(psql(URL_, 'SELECT count(*) FROM cmdb_assets'));
}
if (have < N) {
  const started = performance.now();
  psql(
    URL_,
    `INSERT INTO cmdb_assets (cmdb_id, system_id, name, asset_type, os, ip_address, fqdn, criticality, first_seen_at, last_seen_at)
     SELECT 'BENCH-' || g, s.id, (ARRAY['ws','srv','nb','vm'])[1 + g % 4] || '-' || lpad(g::text, 6, '0'),
            (ARRAY['workstation','server','mobile','virtual'])[1 + g % 4],
            (ARRAY['Windows 11 Pro 23H2','Ubuntu 22.04 LTS','macOS 14','Debian 12'])[1 + g % 4],
            '172.' || (16 + g / 65536 % 16) || '.' || (g / 256 % 256) || '.' || (g % 256),
            (ARRAY['ws','srv','nb','vm'])[1 + g % 4] || '-' || lpad(g::text, 6, '0') || '.' || lower(s.is_id) || '.corp.local',
            (ARRAY['low','medium','high','critical'])[1 + g % 4],
            now() - (g % 400) * interval '1 day', now() - (g % 1440) * interval '1 minute'
     FROM generate_series(${have + 1}, ${N}) g
     JOIN LATERAL (SELECT id, is_id FROM systems ORDER BY id OFFSET g % (SELECT count(*) FROM systems) LIMIT 1) s ON true
     ON CONFLICT (cmdb_id) DO NOTHING`,
  );
  console.log(`added ${N - have} assets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
psql(URL_, 'ANALYZE cmdb_assets');
console.log(`assets: ${psql(URL_, 'SELECT count(*) FROM cmdb_assets')}`);

const plan = (where) =>
  psql(URL_, `EXPLAIN SELECT * FROM cmdb_assets WHERE ${where} ORDER BY name, id LIMIT 50`)
    .split('\n')
    .filter((l) => /Index|Seq Scan/.test(l))
    .map((l) => l.trim())
    .join(' | ');
console.log(
  `plan search 'ws-0123':      ${plan(`(name || ' ' || ip_address || ' ' || fqdn) ILIKE '%ws-0123%'`)}`,
);
console.log(
  `plan search '172.16.4.':    ${plan(`(name || ' ' || ip_address || ' ' || fqdn) ILIKE '%172.16.4.%'`)}`,
);
console.log(`plan one system, by name:   ${plan(`system_id = 1`)}`);

const server = await startServer({ DATABASE_URL: URL_ });
try {
  const tokens = {
    customer: await signIn(server.url, 'alice'),
    analyst: await signIn(server.url, 'analyst'),
  };
  const base = `${server.url}/api/v0/cmdb/assets/`;
  const queries = {
    'first page': '',
    'search name': 'search=ws-0123',
    'search ip': 'search=172.16.4.1',
    'search fqdn': 'search=corp.local',
    'type + criticality': 'asset_type__in=server&criticality__in=critical',
    'last seen desc': 'ordering=-last_seen',
    'page 100': 'page=100',
  };
  for (const [who, token] of Object.entries(tokens)) {
    for (const [name, q] of Object.entries(queries)) {
      const s = await timeGets(`${base}?${q}`, token, 30);
      console.log(`${who.padEnd(8)} ${name.padEnd(20)} p50 ${ms(s.p50)}  p95 ${ms(s.p95)}`);
    }
  }
} finally {
  await server.stop();
}
