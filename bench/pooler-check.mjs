// Checks what of the server's use of a PostgreSQL connection survives a pooler in front of it
// (docs/performance.md, "Scaling out"): `node bench/pooler-check.mjs <url> [<url> …]`, e.g. the
// database directly and through PgBouncer in transaction mode:
//
//   node bench/pooler-check.mjs postgres://postgres@127.0.0.1:5432/test postgres://postgres@127.0.0.1:6432/test
//
// Each check does what apps/server/src/db/client.ts does, with node-postgres the same way:
// - named statements: a pool of 8 runs one named (prepared) statement 384 times, 32 at a time
//   (queryRowsNamed / executeNamed: parsed once per connection, then only bound and executed);
// - per-connection SET: the pool's `connect` handler sets work_mem and jit as the server's does,
//   then 384 queries read both back; and whether the setting reaches a second pool that set nothing;
// - LISTEN: one client LISTENs (as listenPg), another NOTIFYs 20 times;
// - session advisory lock: lock and unlock on one client (the migration lock), 50 times;
// - startup options: a connection with `options` (PGOPTIONS, as the load bench's auto_explain server).
// It prints one table; a check that fails says what broke. Nothing is written to the database.
import pg from 'pg';

const urls = process.argv.slice(2);
if (!urls.length) {
  console.error('usage: node bench/pooler-check.mjs <postgres url> [<postgres url> …]');
  process.exit(2);
}

const WORK_MEM = '24MB';
// queries per check: ROUNDS rounds of 32 at once
const ROUNDS = 12;
const TOTAL = ROUNDS * 32;
const count = (errors) =>
  [...errors.entries()].map(([message, n]) => `${n} × ${message}`).join('; ') || 'no error';

async function namedStatements(url) {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const errors = new Map();
  let ok = 0;
  try {
    for (let round = 0; round < ROUNDS; round++)
      await Promise.all(
        Array.from({ length: 32 }, async (_, i) => {
          try {
            const { rows } = await pool.query({
              name: 'pooler_check_named',
              text: 'SELECT $1::int + 1 AS v',
              values: [i],
            });
            if (rows[0].v === i + 1) ok += 1;
          } catch (err) {
            errors.set(err.message, (errors.get(err.message) ?? 0) + 1);
          }
        }),
      );
  } finally {
    await pool.end();
  }
  return { pass: ok === TOTAL, detail: `${ok} of ${TOTAL} answered; ${count(errors)}` };
}

async function perConnectionSet(url) {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  pool.on('connect', (client) => {
    client.query(`SET jit = off; SET work_mem = '${WORK_MEM}'`).catch(() => undefined);
  });
  // a second client of the same database that sets nothing (another application, or psql)
  const other = new pg.Pool({ connectionString: url, max: 8 });
  const seen = new Map();
  let otherSaw = 0;
  try {
    for (let round = 0; round < ROUNDS; round++)
      await Promise.all([
        ...Array.from({ length: 32 }, async () => {
          const { rows } = await pool.query(
            "SELECT current_setting('work_mem') AS w, current_setting('jit') AS j, pg_sleep(0.002)",
          );
          const key = `work_mem ${rows[0].w}, jit ${rows[0].j}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }),
        ...Array.from({ length: 8 }, async () => {
          const { rows } = await other.query("SELECT current_setting('work_mem') AS w");
          if (rows[0].w === WORK_MEM) otherSaw += 1;
        }),
      ]);
  } finally {
    await pool.end();
    await other.end();
  }
  const wanted = seen.get(`work_mem ${WORK_MEM}, jit off`) ?? 0;
  return {
    pass: wanted === TOTAL && otherSaw === 0,
    detail:
      `${[...seen.entries()].map(([k, n]) => `${n} × ${k}`).join('; ')}; ` +
      `a pool that set nothing saw work_mem ${WORK_MEM} in ${otherSaw} of ${ROUNDS * 8} queries`,
  };
}

async function listenNotify(url) {
  const listener = new pg.Client({ connectionString: url });
  const notifier = new pg.Client({ connectionString: url });
  let received = 0;
  await listener.connect();
  await notifier.connect();
  try {
    listener.on('notification', (m) => {
      if (m.channel === 'pooler_check') received += 1;
    });
    await listener.query('LISTEN pooler_check');
    for (let i = 0; i < 20; i++) {
      await notifier.query(`NOTIFY pooler_check, '${i}'`);
      // the listener's connection may be lent to others meanwhile: let it ask for something too
      await listener.query('SELECT 1');
    }
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    await listener.end();
    await notifier.end();
  }
  return { pass: received === 20, detail: `${received} of 20 notifications received` };
}

async function sessionAdvisoryLock(url) {
  // a lock left on another server connection blocks the next lock: give up after 3 s
  const client = new pg.Client({ connectionString: url, query_timeout: 3000 });
  // other clients keep the pooler's server connections busy meanwhile, as other requests do
  const others = new pg.Pool({ connectionString: url, max: 8 });
  await client.connect();
  let unlocked = 0;
  let busy = true;
  const flood = Array.from({ length: 8 }, async () => {
    while (busy) await others.query('SELECT pg_sleep(0.001)');
  });
  try {
    for (let i = 0; i < 50; i++) {
      await client.query('SELECT pg_advisory_lock(7204399)');
      await new Promise((r) => setTimeout(r, 2));
      const { rows } = await client.query('SELECT pg_advisory_unlock(7204399) AS ok');
      if (rows[0].ok) unlocked += 1;
    }
    return { pass: unlocked === 50, detail: `${unlocked} of 50 unlocks found their lock` };
  } catch (err) {
    return { pass: false, detail: `${unlocked} unlocks found their lock, then the lock: ${err.message}` };
  } finally {
    busy = false;
    await Promise.all(flood).catch(() => undefined);
    // a lock left behind on a pooled server connection stays until that connection closes
    await client.end().catch(() => undefined);
    await others.end();
  }
}

async function startupOptions(url) {
  const client = new pg.Client({ connectionString: url, options: '-c work_mem=25MB' });
  try {
    await client.connect();
    const { rows } = await client.query("SELECT current_setting('work_mem') AS w");
    return { pass: rows[0].w === '25MB', detail: `work_mem ${rows[0].w}` };
  } catch (err) {
    return { pass: false, detail: err.message };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const checks = [
  ['named (prepared) statements over a pool', namedStatements],
  ['SET per connection (work_mem, jit)', perConnectionSet],
  ['LISTEN / NOTIFY on one connection', listenNotify],
  ['session advisory lock and unlock', sessionAdvisoryLock],
  ['startup parameter `options` (PGOPTIONS)', startupOptions],
];

const hidePassword = (url) => url.replace(/:[^:@/]*@/, ':…@');
console.log(`| check | ${urls.map(hidePassword).join(' | ')} |`);
console.log(`|---|${urls.map(() => '---').join('|')}|`);
for (const [name, check] of checks) {
  const cells = [];
  for (const url of urls) {
    const r = await check(url).catch((err) => ({ pass: false, detail: err.message }));
    cells.push(`${r.pass ? 'works' : '**breaks**'}: ${r.detail}`);
  }
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
