// `npm run previous-release`: proves that the previous release's server still works on the new
// schema (docs/operations.md, "The previous release on the new schema"). Bounded (a few minutes),
// not part of `npm test`, which checks the cheap rule instead (migrations only expand).
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test [PREVIOUS_RELEASE=<tag|commit>] \
//     node scripts/previous-release.mjs
//
// The previous release: PREVIOUS_RELEASE, else the newest tag (`git describe --tags --abbrev=0`),
// else the commit before the one that added the newest migration (the code that has never seen
// that migration). Steps: `git worktree add` it to a temporary folder (sharing this checkout's
// node_modules), create a fresh database beside TEST_DATABASE_URL's, apply THIS checkout's
// migrations to it, start the OLD server on it with a small demo data set (loaded by the old
// code into the new schema), then sign in, list incidents, open one, read and post a comment.
// Everything made is removed at the end. Exits 1 when any step fails.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const base = process.env.TEST_DATABASE_URL;
if (!base) {
  console.error('TEST_DATABASE_URL is required (a PostgreSQL server where a database can be created)');
  process.exit(2);
}
const deadline = Date.now() + 5 * 60_000;

function previousRelease() {
  if (process.env.PREVIOUS_RELEASE) return process.env.PREVIOUS_RELEASE;
  try {
    return git('describe', '--tags', '--abbrev=0');
  } catch {
    const newest = readdirSync(path.join(root, 'apps/server/drizzle'))
      .filter((n) => /^\d{4}_.*\.sql$/.test(n))
      .sort()
      .at(-1);
    const added = git('log', '-1', '--format=%H', '--diff-filter=A', '--', `apps/server/drizzle/${newest}`);
    return `${added}~1`;
  }
}

const ref = previousRelease();
const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
const dir = mkdtempSync(path.join(tmpdir(), 'soc-previous-'));
const name = `previous_release_${process.pid}`;
const url = new URL(base);
const adminUrl = url.toString();
url.pathname = `/${name}`;
const dbUrl = url.toString();
let server;
let failed = false;

async function admin(statement) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

try {
  console.log(`previous release: ${ref} (${commit.slice(0, 12)}) in ${dir}`);
  git('worktree', 'add', '--detach', dir, commit);
  for (const modules of ['node_modules', 'apps/server/node_modules', 'packages/contracts/node_modules']) {
    if (existsSync(path.join(root, modules)) && !existsSync(path.join(dir, modules)))
      symlinkSync(path.join(root, modules), path.join(dir, modules), 'dir');
  }
  await admin(`CREATE DATABASE ${name}`);

  // the NEW migrations (and derived functions) of this checkout
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { openDatabase } from './apps/server/src/db/client.ts';
       const d = await openDatabase({ kind: 'postgres', url: process.env.DB_URL, poolSize: 2 });
       await d.migrate(); await d.close();`,
    ],
    { cwd: root, env: { ...process.env, DB_URL: dbUrl }, stdio: 'inherit' },
  );
  console.log('new migrations applied');

  // the OLD server on the new schema
  const port = 20_000 + (process.pid % 20_000);
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(dir, 'apps/server'),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: dbUrl,
      DATABASE_POOL_SIZE: '3',
      JWT_SECRET: 'previous-release-check-secret-0123456789',
      DEMO_DATA: 'true',
      DEMO_INCIDENTS: '20',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const api = `http://127.0.0.1:${port}`;
  for (;;) {
    if (Date.now() > deadline) throw new Error('the previous release did not become ready in time');
    if (server.exitCode !== null) throw new Error(`the previous release exited with ${server.exitCode}`);
    const ready = await fetch(`${api}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await sleep(500);
  }
  console.log('previous release ready on the new schema');

  const expect = async (what, res, status = 200) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    console.log(`✓ ${what}`);
    return res.json();
  };
  const { access } = await expect(
    'sign in',
    await fetch(`${api}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'analyst', password: 'SocDemo-2026!' }),
    }),
  );
  const auth = { authorization: `Bearer ${access}` };
  const list = await expect('incidents list', await fetch(`${api}/api/v0/soc/incs/`, { headers: auth }));
  const key = list.results?.[0]?.key;
  if (key === undefined) throw new Error('incidents list: no incident');
  await expect('incident page', await fetch(`${api}/api/v0/soc/incs/${key}/`, { headers: auth }));
  await expect('comments', await fetch(`${api}/api/v0/soc/incs/${key}/comments/`, { headers: auth }));
  await expect(
    'post a comment',
    await fetch(`${api}/api/v0/soc/incs/${key}/comments/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=X' },
      body: '--X\r\nContent-Disposition: form-data; name="body"\r\n\r\nprevious release check\r\n--X--\r\n',
    }),
    201,
  );
} catch (err) {
  failed = true;
  console.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err) => console.error(err.message));
  try {
    git('worktree', 'remove', '--force', dir);
  } catch (err) {
    console.error(err.message);
  }
}
console.log(failed ? 'previous release check failed' : 'previous release check passed');
process.exit(failed ? 1 : 0);
