import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import type { Config } from '../core/config.ts';
import { testConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { openDatabase } from '../db/client.ts';
import { smsOutbox } from '../db/schema/index.ts';
import { DEMO_PASSWORD, generateDemoData } from '../demo/generator.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import { LocalFileStorage } from '../integrations/storage/local-storage.ts';

export { DEMO_PASSWORD };

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory of this run where demo templates are built once and shared by the test files. */
    socTemplateDir: string;
    /** This run's id, part of the template databases' names. */
    socTemplateId: string;
    /** Where the test files put their copies of a PGlite template (removed after the run). */
    socScratchDir: string;
  }
}

const DEMO_NOW = new Date('2026-11-20T12:00:00Z');

async function fillDemo(database: Database, incidents: number, filesDir: string): Promise<void> {
  await generateDemoData(database.db, { incidents, now: DEMO_NOW, storage: new LocalFileStorage(filesDir) });
}

/** Whether the process that took a template is still running (a worker ended by a time-out is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds a template once per run across the parallel test workers: the first to create `dir`
 * builds, the others wait for its `ready` mark. A builder whose worker ended before finishing
 * (a test file's time-out ends its process) leaves its `owner` behind: the next waiter moves the
 * unfinished directory aside and builds again. Without the run's template directory (a test run
 * outside the project's global setup) there is nothing to share and it returns null.
 */
async function sharedTemplate(name: string, build: (dir: string) => Promise<void>): Promise<string | null> {
  const root = inject('socTemplateDir');
  if (!root) return null;
  const dir = path.join(root, name);
  const ready = path.join(dir, 'ready');
  const failed = path.join(dir, 'failed');
  const owner = path.join(dir, 'owner');
  for (let waited = 0; ; waited += 200) {
    try {
      await mkdir(dir);
    } catch {
      if (existsSync(ready)) return dir;
      if (existsSync(failed)) throw new Error(`demo template ${name}: ${await readFile(failed, 'utf8')}`);
      if (waited > 600_000) throw new Error(`demo template ${name} not ready after 10 minutes`);
      const pid = Number(await readFile(owner, 'utf8').catch(() => ''));
      if (pid > 0 && !alive(pid)) {
        // only one waiter's rename succeeds; every waiter then tries to take the name again
        await rename(dir, `${dir}.abandoned-${randomBytes(4).toString('hex')}`).catch(() => undefined);
        continue;
      }
      await sleep(200);
      continue;
    }
    await writeFile(owner, String(process.pid));
    try {
      await build(dir);
      await writeFile(ready, '');
    } catch (err) {
      await writeFile(failed, String(err));
      throw err;
    }
    return dir;
  }
}

/** Runs one statement (CREATE or DROP DATABASE) on TEST_DATABASE_URL's server, on a connection of its own. */
export async function adminStatement(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/**
 * A database for one test file with `incidents` demo incidents: PGlite on a copied data
 * directory, or a fresh PostgreSQL database in the pg project. Migrating and generating the demo
 * data costs far more than the tests of most files, so each data set is built once per run and
 * copied: PGlite's data directory, PostgreSQL with CREATE DATABASE … TEMPLATE. The demo's files
 * are copied into the test's own `filesDir`.
 */
async function openTestDatabase(
  incidents: number,
  filesDir: string,
  via?: { host: string; port: number },
): Promise<{ database: Database; drop: () => Promise<void>; url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_DRIVER !== 'pg' || !adminUrl) return openPgliteDatabase(incidents, filesDir);

  const admin = adminStatement;
  const urlOf = (db: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${db}`;
    return url.toString();
  };
  /** The app's URL of the test database: through `via` (a proxy the test can cut) when given. */
  const appUrlOf = (db: string) => {
    const url = new URL(urlOf(db));
    if (via) {
      url.hostname = via.host;
      url.port = String(via.port);
    }
    return url.toString();
  };
  const templateName = `soc_tmpl_${inject('socTemplateId')}_${incidents}`;
  const template = await sharedTemplate(`pg-${incidents}`, async (dir) => {
    // a builder that did not finish may have left the database half made
    await admin(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${templateName}`);
    const database = await openDatabase({ kind: 'postgres', url: urlOf(templateName), poolSize: 4 });
    try {
      await database.migrate();
      await fillDemo(database, incidents, path.join(dir, 'files'));
    } finally {
      await database.close();
    }
  });
  const name = `soc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(template ? `CREATE DATABASE ${name} TEMPLATE ${templateName}` : `CREATE DATABASE ${name}`);
  const database = await openDatabase({ kind: 'postgres', url: appUrlOf(name), poolSize: 4 });
  if (template) await copyFiles(template, filesDir);
  else {
    await database.migrate();
    await fillDemo(database, incidents, filesDir);
  }
  return {
    database,
    url: urlOf(name),
    drop: async () => {
      await database.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * PGlite's data directories on disk, built once per run: `pglite-base` migrated and empty (the
 * engine's initdb and the migrations cost more than most files' tests), `pglite-N` a copy of it
 * with the demo data. Each test file opens its own copy of one, which is far quicker than
 * unpacking a dumped tarball into the engine's memory.
 */
async function pgliteTemplate(incidents: number | null): Promise<string | null> {
  const name = incidents === null ? 'pglite-base' : `pglite-${incidents}`;
  return sharedTemplate(name, async (dir) => {
    const data = path.join(dir, 'data');
    if (incidents === null) {
      const database = await openDatabase({ kind: 'pglite', dataDir: data });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      return;
    }
    const base = await pgliteTemplate(null);
    await cp(path.join(base!, 'data'), data, { recursive: true });
    const database = await openDatabase({ kind: 'pglite', dataDir: data });
    try {
      await fillDemo(database, incidents, path.join(dir, 'files'));
    } finally {
      await database.close();
    }
  });
}

/** A PGlite database of its own for the caller, migrated, with `incidents` demo incidents (null: empty). */
export async function openPgliteDatabase(
  incidents: number | null,
  filesDir: string,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const template = await pgliteTemplate(incidents);
  if (!template) {
    // outside the project's global setup: nothing to share
    const database = await openDatabase({ kind: 'pglite' });
    await database.migrate();
    if (incidents !== null) await fillDemo(database, incidents, filesDir);
    return { database, drop: () => database.close() };
  }
  await copyFiles(template, filesDir);
  const dataDir = await mkdtemp(path.join(inject('socScratchDir'), 'db-'));
  await cp(path.join(template, 'data'), dataDir, { recursive: true });
  const database = await openDatabase({ kind: 'pglite', dataDir });
  return {
    database,
    drop: async () => {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function copyFiles(template: string, filesDir: string): Promise<void> {
  const source = path.join(template, 'files');
  if (existsSync(source)) await cp(source, filesDir, { recursive: true });
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The direct URL of the test's PostgreSQL database (pg project only; not through `databaseVia`). */
  databaseUrl?: string;
  /** Signs in through the API and returns the token pair. */
  login(username: string, password?: string): Promise<{ access: string; refresh: string }>;
  close(): Promise<void>;
}

export interface TestContextOptions {
  /** Demo incidents to generate (default 20); 0 still creates systems and users. */
  incidents?: number;
  config?: Partial<Config>;
  /** Receives the app's log lines (set `config.logLevel` too; tests default to silent). */
  logStream?: { write(line: string): void };
  /**
   * PostgreSQL only: the app reaches its database through this host and port (a TCP proxy in
   * front of TEST_DATABASE_URL's server that a fault test can cut) instead of directly.
   */
  databaseVia?: { host: string; port: number };
  /** The app's file storage instead of one on `config.filesDir` (given the final config). */
  storage?: (config: Config) => FileStorage;
  /** The app's clock (default: the real one); the demo data is generated at 2026-11-20 12:00 UTC. */
  now?: () => Date;
}

/** Builds the app on a fresh, migrated database filled with a small demo data set. */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const config = testConfig(options.config);
  const { database, drop, url } = await openTestDatabase(
    options.incidents ?? 20,
    config.filesDir,
    options.databaseVia,
  );
  const app = await buildApp({
    config,
    database,
    auth: { failureFloorMs: 0, failureJitterMs: 0 },
    logStream: options.logStream,
    storage: options.storage?.(config),
    now: options.now,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    databaseUrl: url,
    async login(username, password = DEMO_PASSWORD) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        payload: { username, password },
      });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json<{ access: string; refresh: string }>();
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

/** The sign-in code in the newest SMS outbox message to `phone`. */
export async function lastSmsCode(ctx: TestContext, phone: string): Promise<string> {
  const rows = await ctx.database.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, phone))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  const code = /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1];
  if (!code) throw new Error('no code in the outbox');
  return code;
}
