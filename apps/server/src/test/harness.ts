import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { testConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { openDatabase } from '../db/client.ts';
import { DEMO_PASSWORD, generateDemoData } from '../demo/generator.ts';
import { FileStorage } from '../integrations/storage/file-storage.ts';

export { DEMO_PASSWORD };

/** A database for one test file: in-memory PGlite, or a fresh PostgreSQL database in the pg project. */
async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_DRIVER !== 'pg' || !adminUrl) {
    const database = await openDatabase({ kind: 'pglite' });
    return { database, drop: () => database.close() };
  }
  const name = `soc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
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
}

/** Builds the app on a fresh, migrated database filled with a small demo data set. */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const { database, drop } = await openTestDatabase();
  await database.migrate();
  const config = testConfig(options.config);
  await generateDemoData(database.db, {
    incidents: options.incidents ?? 20,
    now: new Date('2026-11-20T12:00:00Z'),
    storage: new FileStorage(config.filesDir),
  });
  const app = await buildApp({
    config,
    database,
    auth: { failureFloorMs: 0, failureJitterMs: 0 },
    logStream: options.logStream,
  });
  await app.ready();
  return {
    app,
    database,
    config,
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
