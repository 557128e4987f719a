import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../core/config.ts';
import { testConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { openDatabase } from '../../db/client.ts';
import { generateDemoData } from '../../demo/generator.ts';
import { createFileStorage } from '../../integrations/storage/create-storage.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { adminStatement } from '../../test/harness.ts';
import { startTestS3ServerOrSkip } from '../../test/s3-server.ts';
import { runAdminCommand } from './admin.commands.ts';
import type { BackupManifest } from './backup.ts';
import { COUNTED_TABLES } from './backup.ts';
import { createFilesMigrateRepository } from './files-migrate.repository.ts';
import { queryRows } from '../../db/client.ts';
import { sql } from 'drizzle-orm';

/*
 * Issue 38 "Backups": `backup --to DIR` and `restore --from DIR` give back the same database and
 * the same files, on the embedded database with the local folder and on PostgreSQL with S3.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'soc-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The state a restore must give back: row counts and every referred file's SHA-256 as downloaded. */
async function snapshot(database: Database, storage: FileStorage) {
  const files: Record<string, string | null> = {};
  for await (const f of createFilesMigrateRepository(database.db).storedFiles()) {
    const bytes = await buffer(await storage.open(f.key)).catch(() => null);
    files[f.key] = bytes ? sha(bytes) : null;
    if (bytes && f.sha256) expect(sha(bytes)).toBe(f.sha256);
  }
  const rows: Record<string, number> = {};
  for (const t of COUNTED_TABLES) {
    const [r] = await queryRows<{ n: string | number }>(
      database.db,
      sql`SELECT count(*) AS n FROM ${sql.identifier(t)}`,
    );
    rows[t] = Number(r!.n);
  }
  return { files, rows };
}

/** Runs an admin command the way the CLI does (with the whole database, which a restore may replace). */
function admin(argv: string[], state: { database: Database; config: Config }) {
  return runAdminCommand(argv, {
    db: state.database.db,
    config: state.config,
    database: state.database,
    replaceDatabase: (d) => (state.database = d),
    log: () => undefined,
  });
}

/** The round trip both drivers go through; `wipe` leaves an empty, migrated database and storage. */
function roundTrip(
  name: string,
  setup: () => Promise<{
    database: Database;
    config: Config;
    wipe: () => Promise<Database>;
    close: () => Promise<void>;
  }>,
) {
  let state: { database: Database; config: Config };
  let wipe: () => Promise<Database>;
  let close: () => Promise<void> = async () => undefined;
  let before: Awaited<ReturnType<typeof snapshot>>;
  const dir = path.join(scratch, `${name}-backup`);

  afterAll(async () => {
    // a restore of the embedded database replaced the one the setup opened
    await state?.database.close().catch(() => undefined);
    await close();
  });

  // initdb (embedded), the migrations and the demo data: slower than the tests' default
  beforeAll(async () => {
    const made = await setup();
    state = { database: made.database, config: made.config };
    wipe = made.wipe;
    close = made.close;
  }, 180_000);

  it('backs up the database, every stored file and a manifest of checksums', async () => {
    const storage = createFileStorage(state.config);
    before = await snapshot(state.database, storage);
    storage.close();
    expect(Object.keys(before.files).length).toBeGreaterThan(0);
    expect(Object.values(before.files)).not.toContain(null);

    const out = JSON.parse(await admin(['backup', '--to', dir], state)) as Record<string, unknown>;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(out).toMatchObject({ to: dir, rows: before.rows });
    expect(manifest.rows).toEqual(before.rows);
    expect(manifest.migration?.tag).toMatch(/^\d{4}_/);
    expect(manifest.portalVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.files).toMatchObject({ count: Object.keys(before.files).length, missing: [] });
    for (const key of Object.keys(before.files)) {
      expect(manifest.checksums[`files/${key}`]).toBe(before.files[key]);
    }
    expect(manifest.checksums[manifest.database.file]).toMatch(/^[0-9a-f]{64}$/);
  }, 120_000);

  it('refuses to restore over a database that holds data, unless --force', async () => {
    await expect(admin(['restore', '--from', dir], state)).rejects.toThrow(/not empty.*--force/);
  });

  it('refuses a damaged backup and one of a newer migration before touching anything', async () => {
    state.database = await wipe();
    const damaged = path.join(scratch, `${name}-damaged`);
    cpSync(dir, damaged, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(damaged, 'manifest.json'), 'utf8')) as BackupManifest;
    const file = Object.keys(manifest.checksums).find((k) => k.startsWith('files/'))!;
    writeFileSync(path.join(damaged, file), 'not the stored bytes');
    await expect(admin(['restore', '--from', damaged], state)).rejects.toThrow(
      `Backup damaged: ${file} does not match its SHA-256`,
    );

    const newer = path.join(scratch, `${name}-newer`);
    cpSync(dir, newer, { recursive: true });
    const later = { ...manifest, migration: { tag: '9999_future', when: Date.now() + 10 ** 12 } };
    writeFileSync(path.join(newer, 'manifest.json'), JSON.stringify(later));
    await expect(admin(['restore', '--from', newer], state)).rejects.toThrow(/newer portal.*9999_future/);

    const storage = createFileStorage(state.config);
    const untouched = await snapshot(state.database, storage);
    storage.close();
    expect(untouched.files).toEqual({});
    expect(Object.values(untouched.rows).every((n) => n === 0)).toBe(true);
  }, 120_000);

  it('restores the same rows and files, and the derived tables agree', async () => {
    await admin(['restore', '--from', dir], state);
    const storage = createFileStorage(state.config);
    expect(await snapshot(state.database, storage)).toEqual(before);
    storage.close();
    expect(await admin(['derived', 'check'], state)).toMatch(/agree with their recount/);
    // a second restore over the restored data needs --force, and gives the same again
    await admin(['restore', '--from', dir, '--force'], state);
    const again = createFileStorage(state.config);
    expect(await snapshot(state.database, again)).toEqual(before);
    again.close();
  }, 120_000);
}

const DEMO_NOW = new Date('2026-11-20T12:00:00Z');

describe('backup and restore on the embedded database with local storage', () => {
  roundTrip('pglite', async () => {
    const root = mkdtempSync(path.join(scratch, 'pglite-'));
    const config = testConfig({
      dataDir: root,
      filesDir: path.join(root, 'files'),
      storage: { driver: 'local' },
    });
    const open = async () => {
      const database = await openDatabase({ kind: 'pglite', dataDir: path.join(root, 'pgdata') });
      await database.migrate();
      return database;
    };
    let database = await open();
    await generateDemoData(database.db, { incidents: 5, now: DEMO_NOW, storage: createFileStorage(config) });
    return {
      database,
      config,
      wipe: async () => {
        await database.close();
        rmSync(path.join(root, 'pgdata'), { recursive: true, force: true });
        rmSync(config.filesDir, { recursive: true, force: true });
        database = await open();
        return database;
      },
      close: () => database.close().catch(() => undefined),
    };
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
const s3 = pgUrl ? await startTestS3ServerOrSkip('backup on PostgreSQL with S3') : null;
afterAll(() => s3?.close());

describe.runIf(pgUrl && s3)('backup and restore on PostgreSQL with S3', () => {
  roundTrip('pg', async () => {
    // a database of its own: the restore replaces what it holds
    const name = `test_backup_${process.pid}`;
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    const config = testConfig({
      dataDir: mkdtempSync(path.join(scratch, 'pg-')),
      databaseUrl: url.toString(),
      storage: { driver: 's3', s3: s3!.settings },
    });
    const open = async () => {
      await adminStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminStatement(`CREATE DATABASE ${name}`);
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
      await database.migrate();
      return database;
    };
    let database = await open();
    const storage = createFileStorage(config);
    await generateDemoData(database.db, { incidents: 5, now: DEMO_NOW, storage });
    return {
      database,
      config,
      wipe: async () => {
        for await (const f of createFilesMigrateRepository(database.db).storedFiles())
          await storage.remove(f.key);
        await database.close();
        database = await open();
        return database;
      },
      close: async () => {
        storage.close();
        await database.close().catch(() => undefined);
        await adminStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  });
});
