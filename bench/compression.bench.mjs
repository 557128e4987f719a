// Bytes on the wire (issue 31 part 1): bytes per answer, req/s, latency and the server's CPU time
// per request of the incident list, the incident card and the alerts endpoints, without and with
// compression, in one run: a production server with HTTP_COMPRESSION=off, then one server per
// pair of levels (HTTP_COMPRESSION_BROTLI_QUALITY / HTTP_COMPRESSION_GZIP_LEVEL), each asked for
// Brotli and for gzip. Same bench database and load as the load table (bench/load.bench.mjs):
// autocannon, 32 connections, BENCH_DURATION seconds (default 5) per row, after a 2-second
// warm-up per endpoint and server.
//
//   BENCH_LEVELS=4:6,6:9   Brotli quality:gzip level pairs, one server each (default 4:6,1:1,6:9)
//   BENCH_INCIDENTS=N      data set size when the database is generated (default 1,000,000)
//   BENCH_DATABASE_URL     the database (default soc_bench, see support.mjs)
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { BENCH_URL, ensureDataSet, psql, signIn, startServer, stats } from './support.mjs';

const N = Number(process.env.BENCH_INCIDENTS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;
const WARM_UP_SECONDS = 2;
const LEVELS = (process.env.BENCH_LEVELS ?? '4:6,1:1,6:9').split(',').map((pair) => {
  const [brotli, gzip] = pair.split(':').map(Number);
  return { brotli, gzip };
});
/** The load table's targets for these endpoints (docs/performance.md). */
const TARGET_P95_MS = 50;
const TARGET_CARD_RPS = 1500;

ensureDataSet({ incidents: N, systems: 50, users: 2000 });
const incidents = Number(psql(BENCH_URL, 'SELECT count(*) FROM incidents'));
// the newest 2,000 incidents (issue type "incident": they have alerts), rotated over by the card
// and alerts requests so that no single answer sits in a cache
const incidentType = "(SELECT id FROM issue_types WHERE code = 'incident')";
const keys = psql(
  BENCH_URL,
  `SELECT key FROM incidents WHERE issue_type_id = ${incidentType} ORDER BY key DESC LIMIT 2000`,
)
  .split('\n')
  .map(Number);
let turn = 0;
const nextKey = () => keys[turn++ % keys.length];

const endpoints = [
  { name: 'list: analyst, 40, -created', path: () => '/soc/incs/?limit=40&ordering=-created', as: 'analyst' },
  {
    name: 'list: customer, 40, -created',
    path: () => '/soc/incs/?limit=40&ordering=-created',
    as: 'customer',
  },
  { name: 'incident card', path: () => `/soc/incs/${nextKey()}/`, as: 'analyst', rps: TARGET_CARD_RPS },
  {
    name: 'alerts of an incident, page 1',
    path: () => `/soc/incs/${nextKey()}/alerts/?page=1`,
    as: 'analyst',
  },
  { name: 'alerts page (/soc/alerts/)', path: () => '/soc/alerts/?page=1', as: 'customer' },
];
const pathOf = (e) => `/api/v0${e.path()}`;

/** Seconds of CPU (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Body and header bytes of one answer as they travel (no decoding), averaged over 20 requests. */
function wireBytes(url, e, token, encoding) {
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request(
        `${url}${pathOf(e)}`,
        {
          headers: { authorization: `Bearer ${token}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
        },
        (res) => {
          let body = 0;
          res.on('data', (chunk) => (body += chunk.length));
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`${res.statusCode} ${e.name}`));
            const headers = res.rawHeaders.reduce((total, part) => total + part.length + 2, 0);
            resolve({ body, headers, sent: res.headers['content-encoding'] ?? 'identity' });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  return (async () => {
    let body = 0;
    let headers = 0;
    const sent = new Set();
    for (let i = 0; i < 20; i++) {
      const r = await one();
      body += r.body;
      headers += r.headers;
      sent.add(r.sent);
    }
    return { body: body / 20, headers: headers / 20, sent: [...sent].join('+') };
  })();
}

async function load(server, e, token, encoding, duration = DURATION) {
  const latencies = [];
  const headers = { authorization: `Bearer ${token}` };
  if (encoding) headers['accept-encoding'] = encoding;
  const cpuBefore = cpuSeconds(server.pid);
  const instance = autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    headers,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf(e) }) }],
  });
  instance.on('response', (_client, _status, _bytes, time) => latencies.push(time));
  const result = await instance;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  return {
    rps: result.requests.total / (result.duration || duration),
    errors: result.non2xx + result.errors + result.timeouts,
    cpuMsPerRequest: (cpu * 1000) / Math.max(1, result.requests.total),
    ...stats(latencies),
  };
}

const variants = [
  { label: 'off', env: { HTTP_COMPRESSION: 'off' }, encodings: [undefined] },
  ...LEVELS.map((l) => ({
    label: `br ${l.brotli} / gzip ${l.gzip}`,
    env: {
      HTTP_COMPRESSION: 'on',
      HTTP_COMPRESSION_BROTLI_QUALITY: String(l.brotli),
      HTTP_COMPRESSION_GZIP_LEVEL: String(l.gzip),
    },
    encodings: ['br', 'gzip'],
  })),
];

/**
 * The compression alone, in this process: size and CPU time of each level on one real answer of
 * each endpoint (fetched as identity from the server with compression off), best of 3 × 50 runs.
 */
const CODECS = [
  ...[1, 4, 5, 6, 9].map((q) => ({
    name: `br ${q}`,
    run: (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: q } }),
  })),
  ...[1, 6, 9].map((level) => ({ name: `gzip ${level}`, run: (b) => gzipSync(b, { level }) })),
];
function codecTable(samples) {
  const lines = [
    `| endpoint | identity | ${CODECS.map((c) => c.name).join(' | ')} |`,
    `|---|---:|${CODECS.map(() => '---:').join('|')}|`,
  ];
  for (const { e, body } of samples) {
    const cells = CODECS.map((codec) => {
      const runs = 50;
      let best = Infinity;
      let size = 0;
      for (let round = 0; round < 3; round++) {
        const started = process.cpuUsage();
        for (let i = 0; i < runs; i++) size = codec.run(body).length;
        const used = process.cpuUsage(started);
        best = Math.min(best, (used.user + used.system) / runs / 1000);
      }
      return `${size} B, ${best.toFixed(2)} ms`;
    });
    lines.push(`| ${e.name} | ${body.length} B | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

async function identityBody(url, e, token) {
  const res = await fetch(`${url}${pathOf(e)}`, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  if (!res.ok) throw new Error(`${res.status} ${e.name}`);
  return Buffer.from(await res.arrayBuffer());
}

const samples = [];
const rows = [];
for (const variant of variants) {
  const server = await startServer(variant.env);
  try {
    const tokens = {
      analyst: await signIn(server.url, 'analyst'),
      customer: await signIn(server.url, 'carol'),
    };
    if (!samples.length)
      for (const e of endpoints) samples.push({ e, body: await identityBody(server.url, e, tokens[e.as]) });
    for (const e of endpoints) {
      // a pass before the measured ones warms the JIT and the server's caches over the rotating keys,
      // so that the first encoding measured pays no more than the next
      await load(server, e, tokens[e.as], undefined, WARM_UP_SECONDS);
      for (const encoding of variant.encodings) {
        const bytes = await wireBytes(server.url, e, tokens[e.as], encoding);
        const r = await load(server, e, tokens[e.as], encoding);
        rows.push({ variant: variant.label, e, encoding: encoding ?? 'identity', bytes, r });
        process.stdout.write(
          `${variant.label}, ${encoding ?? 'identity'}, ${e.name}: ${bytes.body.toFixed(0)} B, ${r.rps.toFixed(0)} req/s\n`,
        );
      }
    }
  } finally {
    await server.stop();
  }
}

console.log(
  `\nCompression: ${incidents.toLocaleString('en')} incidents; autocannon ${CONNECTIONS} connections, ` +
    `${DURATION} s per row; body = bytes of the answer as sent (mean of 20), headers likewise; ` +
    `CPU = the server process's user + system time per request over the run`,
);
console.log(
  '| endpoint | server | asked | sent | body | headers | req/s | p50 | p95 | p99 | CPU/req | targets |',
);
console.log('|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
let failures = 0;
for (const { variant, e, encoding, bytes, r } of rows) {
  const checks = [];
  const check = (label, ok) => {
    checks.push(ok ? label : `✗ ${label}`);
    if (!ok) failures += 1;
  };
  check(`p95 < ${TARGET_P95_MS} ms`, r.p95 < TARGET_P95_MS);
  if (e.rps) check(`≥ ${e.rps} req/s`, r.rps >= e.rps);
  if (r.errors) check(`${r.errors} errors`, false);
  console.log(
    `| ${e.name} | ${variant} | ${encoding} | ${bytes.sent} | ${bytes.body.toFixed(0)} B | ${bytes.headers.toFixed(0)} B | ` +
      `${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ` +
      `${r.cpuMsPerRequest.toFixed(2)} ms | ${checks.join('; ')} |`,
  );
}
console.log(
  '\nThe compression alone (one answer of each endpoint; size, and CPU time per call in this process):',
);
console.log(codecTable(samples));
console.log(`\n${failures} target(s) missed`);
process.exit(failures ? 1 : 0);
