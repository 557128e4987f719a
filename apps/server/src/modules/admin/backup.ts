import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, openAsBlob, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../../core/config.ts';
import type { Database, Db } from '../../db/client.ts';
import { migrationsFolder, openDatabase, queryRows } from '../../db/client.ts';
import * as schema from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { assertStorageKey } from '../../integrations/storage/file-storage.ts';
import { CommandError } from './command-context.ts';
import { createFilesMigrateRepository } from './files-migrate.repository.ts';

/** The manifest's layout version; restore refuses others. */
const FORMAT = 1;
const MANIFEST = 'manifest.json';
const PG_DUMP = 'database.dump';
const PGLITE_DUMP = 'pglite-data.tar';

/** Tables whose row counts the manifest records (and restore compares after loading). */
export const COUNTED_TABLES = [
  'systems',
  'users',
  'services',
  'contacts',
  'incidents',
  'comments',
  'attachments',
  'alerts',
  'tasks',
  'task_attachments',
  'documents',
  'document_attachments',
  'reports',
  'mail_quarantine',
  'rules',
  'audit_log',
] as const;

export interface BackupManifest {
  format: number;
  createdAt: string;
  portalVersion: string;
  database: { kind: 'postgres' | 'pglite'; file: string };
  migration: { tag: string; when: number } | null;
  rows: Record<string, number>;
  files: { count: number; bytes: number; missing: string[] };
  /** SHA-256 (hex) of every file of the backup but the manifest, by its path inside it. */
  checksums: Record<string, string>;
}

export interface BackupDeps {
  database: Database;
  config: Pick<Config, 'databaseUrl' | 'dataDir'>;
  storage: FileStorage;
  log: (line: string) => void;
}

interface JournalEntry {
  tag: string;
  when: number;
}

function journal(): JournalEntry[] {
  const file = path.join(migrationsFolder(), 'meta', '_journal.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { entries: JournalEntry[] }).entries;
}

/** The portal's version: that of the server's package.json (from sources and from the bundle). */
function portalVersion(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@soc/server' && pkg.version) return pkg.version;
  }
  return 'unknown';
}

/** The newest applied migration (drizzle records its journal's `when` as created_at). */
async function lastMigration(db: Db): Promise<{ tag: string; when: number } | null> {
  const rows = await queryRows<{ created_at: string | number }>(
    db,
    sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC, id DESC LIMIT 1`,
  ).catch(() => []);
  const when = rows[0] ? Number(rows[0].created_at) : null;
  if (when === null) return null;
  return { tag: journal().find((e) => e.when === when)?.tag ?? 'unknown', when };
}

async function countRows(db: Db): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const [row] = await queryRows<{ n: string | number }>(
      db,
      sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`,
    );
    rows[table] = Number(row?.n ?? 0);
  }
  return rows;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A PostgreSQL URL split into the password (for PGPASSWORD) and the rest: no password on a command line or in a log. */
function connection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs pg_dump or pg_restore; fails with its stderr (which carries no password: it is not on its command line). */
async function runPgTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    if (stderr.length < 20_000) stderr += d;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT')
      throw new CommandError(`${command} not found: install PostgreSQL's client tools (postgresql-client).`);
    throw err;
  });
  if (code !== 0) throw new CommandError(`${command} failed (exit ${code}):\n${stderr.trim()}`);
}

/**
 * Loads a custom-format dump into the database in one transaction: pg_restore writes the script
 * (--clean --if-exists --no-owner) and psql runs it after dropping the portal's schemas. Dropping
 * them first is needed: pg_restore's --clean alone cannot drop the partitions' inherited primary
 * keys ("cannot drop inherited constraint"). Any error rolls everything back (ON_ERROR_STOP).
 */
async function restorePg(dump: string, url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const psql = spawn('psql', ['--no-psqlrc', '--quiet', '-v', 'ON_ERROR_STOP=1', `--dbname=${url}`], {
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const restore = spawn('pg_restore', ['--clean', '--if-exists', '--no-owner', '--file=-', dump], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  const collect = (name: string) => (d: Buffer) => {
    if (errors.join('').length < 20_000) errors.push(`${name}: ${d.toString('utf8')}`);
  };
  psql.stderr.on('data', collect('psql'));
  restore.stderr.on('data', collect('pg_restore'));
  const exited = (child: typeof psql | typeof restore, name: string) =>
    new Promise<number | null>((resolve, reject) => {
      child.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          err.code === 'ENOENT'
            ? new CommandError(`${name} not found: install PostgreSQL's client tools (postgresql-client).`)
            : err,
        ),
      );
      child.once('close', resolve);
    });
  const psqlExit = exited(psql, 'psql');
  const restoreExit = exited(restore, 'pg_restore');
  // psql stops at the first error and closes its input: what is still written then is dropped
  psql.stdin.on('error', () => undefined);
  psql.stdin.write(
    'BEGIN;\nDROP SCHEMA IF EXISTS drizzle CASCADE;\nDROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n',
  );
  restore.stdout.pipe(psql.stdin, { end: false });
  const [restoreCode] = await Promise.all([
    restoreExit,
    new Promise((resolve) => restore.stdout.once('end', resolve)),
  ]);
  // without COMMIT the transaction is rolled back when psql ends
  psql.stdin.end(restoreCode === 0 ? 'COMMIT;\n' : '');
  const psqlCode = await psqlExit;
  if (restoreCode !== 0 || psqlCode !== 0)
    throw new CommandError(
      `Restoring the dump failed (pg_restore exit ${restoreCode}, psql exit ${psqlCode}); the database is ` +
        `as it was:\n${errors.join('').trim()}`,
    );
}

/** Copies every stored object the database refers to into `dir/files/<key>`; returns what it copied. */
async function copyFilesOut(
  db: Db,
  storage: FileStorage,
  dir: string,
  log: (line: string) => void,
): Promise<{ count: number; bytes: number; missing: string[]; checksums: Record<string, string> }> {
  const checksums: Record<string, string> = {};
  const missing: string[] = [];
  let count = 0;
  let bytes = 0;
  for await (const file of createFilesMigrateRepository(db).storedFiles()) {
    assertStorageKey(file.key);
    const rel = `files/${file.key}`;
    if (checksums[rel]) continue;
    let source: Readable;
    try {
      source = await storage.open(file.key);
    } catch (err) {
      // removed since the snapshot (a deleted incident's attachment): the restored row has no file either way
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
      missing.push(file.key);
      log(`backup: ${file.key} is missing in the storage`);
      continue;
    }
    const target = path.join(dir, rel);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const hash = createHash('sha256');
    source.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(source, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    checksums[rel] = hash.digest('hex');
    count++;
    bytes += (await stat(target)).size;
    if (count % 500 === 0) log(`backup: ${count} files copied`);
  }
  return { count, bytes, missing, checksums };
}

/**
 * `backup --to DIR`: a consistent dump of the database (pg_dump's custom format on PostgreSQL,
 * the data directory's tarball on the embedded engine), every stored file the dump refers to
 * under DIR/files/, and DIR/manifest.json with the version, the last migration, row counts and
 * the SHA-256 of every file. On PostgreSQL the file list is read in the dump's own snapshot.
 */
export async function backupTo(dir: string, deps: BackupDeps): Promise<BackupManifest> {
  const { database, storage, log } = deps;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if ((await readdir(dir)).length) throw new CommandError(`${dir} is not empty: back up into a new folder.`);
  // every customer's data: readable by this user only
  await chmod(dir, 0o700);

  const finish = async (
    db: Db,
    file: string,
  ): Promise<Omit<BackupManifest, 'checksums'> & { checksums: Record<string, string> }> => {
    const migration = await lastMigration(db);
    const rows = await countRows(db);
    const files = await copyFilesOut(db, storage, dir, log);
    return {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      portalVersion: portalVersion(),
      database: { kind: database.kind, file },
      migration,
      rows,
      files: { count: files.count, bytes: files.bytes, missing: files.missing },
      checksums: files.checksums,
    };
  };

  let manifest: BackupManifest;
  if (database.kind === 'postgres') {
    if (!deps.config.databaseUrl) throw new Error('DATABASE_URL is not set');
    const { url, env } = connection(deps.config.databaseUrl);
    // one snapshot for the dump, the row counts and the file list
    const client = new pg.Client({ connectionString: deps.config.databaseUrl });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
      log('backup: pg_dump --format=custom');
      await runPgTool(
        'pg_dump',
        [
          '--format=custom',
          `--snapshot=${rows[0]!.id}`,
          `--file=${path.join(dir, PG_DUMP)}`,
          `--dbname=${url}`,
        ],
        env,
      );
      manifest = await finish(drizzlePg({ client, schema }), PG_DUMP);
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => undefined);
    }
  } else {
    if (!database.dumpDataDir) throw new Error('The embedded database cannot be dumped');
    log('backup: dumping the embedded database');
    // one process holds the embedded database: nothing changes it between these steps
    const tarball = await database.dumpDataDir();
    await writeFile(path.join(dir, PGLITE_DUMP), Buffer.from(await tarball.arrayBuffer()), { mode: 0o600 });
    manifest = await finish(database.db, PGLITE_DUMP);
  }
  await chmod(path.join(dir, manifest.database.file), 0o600);
  manifest.checksums = {
    [manifest.database.file]: await sha256OfFile(path.join(dir, manifest.database.file)),
    ...manifest.checksums,
  };
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  log(`backup: ${manifest.files.count} files, ${Object.keys(manifest.checksums).length} checksums`);
  return manifest;
}

export interface RestoreDeps extends BackupDeps {
  /** Restore over a database that holds data. */
  force: boolean;
}

/** Reads and checks a backup's manifest and every checksum; throws before anything is touched. */
export async function verifyBackup(dir: string): Promise<BackupManifest> {
  const text = await readFile(path.join(dir, MANIFEST), 'utf8').catch(() => {
    throw new CommandError(`${path.join(dir, MANIFEST)} not found: not a backup folder.`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== FORMAT) throw new CommandError(`Unknown backup format ${String(manifest.format)}.`);
  const entries = Object.entries(manifest.checksums ?? {});
  if (!entries.some(([rel]) => rel === manifest.database?.file))
    throw new CommandError('The manifest lists no database dump.');
  for (const [rel, expected] of entries) {
    if (rel.startsWith('files/')) assertStorageKey(rel.slice('files/'.length));
    else if (rel !== PG_DUMP && rel !== PGLITE_DUMP)
      throw new CommandError(`Unexpected file ${rel} in the manifest.`);
    const actual = await sha256OfFile(path.join(dir, rel)).catch(() => null);
    if (actual === null) throw new CommandError(`Backup damaged: ${rel} is missing. Nothing was restored.`);
    if (actual !== expected)
      throw new CommandError(`Backup damaged: ${rel} does not match its SHA-256. Nothing was restored.`);
  }
  const newest = journal().at(-1);
  if (manifest.migration && newest && manifest.migration.when > newest.when)
    throw new CommandError(
      `The backup was made by a newer portal (${manifest.portalVersion}, migration ${manifest.migration.tag}; ` +
        `this one knows up to ${newest.tag}): restore it with that version or a later one.`,
    );
  return manifest;
}

/** Whether the database holds anything a restore would overwrite (beyond the migrations' own rows). */
async function holdsData(db: Db): Promise<boolean> {
  const rows = await countRows(db);
  return Object.values(rows).some((n) => n > 0);
}

/**
 * `restore --from DIR [--force]`: checks the manifest and every checksum, refuses a backup of a
 * newer migration and (without `force`) a database holding data; then puts the files back into
 * the storage and loads the dump (pg_restore --clean --if-exists --no-owner in one transaction;
 * the embedded engine: the data folder replaced, the old one kept beside it), then migrates.
 * Returns the database to use from then on (the embedded one is opened anew).
 */
export async function restoreFrom(
  dir: string,
  deps: RestoreDeps,
): Promise<{ database: Database; manifest: BackupManifest }> {
  const { storage, log } = deps;
  const manifest = await verifyBackup(dir);
  if (manifest.database.kind !== deps.database.kind)
    throw new CommandError(
      `The backup is of the ${manifest.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} database; ` +
        `this portal runs on the ${deps.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} one.`,
    );
  if (!deps.force && (await holdsData(deps.database.db)))
    throw new CommandError(
      'The database is not empty: restore into an empty one, or add --force to replace it.',
    );

  const files = Object.keys(manifest.checksums).filter((rel) => rel.startsWith('files/'));
  let restored = 0;
  for (const rel of files) {
    const stored = await storage.putAt(rel.slice('files/'.length), createReadStream(path.join(dir, rel)));
    if (stored.sha256 !== manifest.checksums[rel]) throw new Error(`${rel} changed while it was restored`);
    if (++restored % 500 === 0) log(`restore: ${restored}/${files.length} files`);
  }
  log(`restore: ${restored} files put back`);

  let database = deps.database;
  const dump = path.join(dir, manifest.database.file);
  if (database.kind === 'postgres') {
    if (!deps.config.databaseUrl) throw new Error('DATABASE_URL is not set');
    const { url, env } = connection(deps.config.databaseUrl);
    log('restore: pg_restore --clean --if-exists --no-owner, in one transaction');
    await restorePg(dump, url, env);
  } else {
    const dataDir = path.join(deps.config.dataDir, 'pgdata');
    await database.close();
    const aside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    if (existsSync(dataDir)) {
      await rename(dataDir, aside);
      log(`restore: the previous database folder is kept as ${aside}`);
    }
    database = await openDatabase({ kind: 'pglite', dataDir, loadDataDir: await openAsBlob(dump) });
  }
  // a backup of an older version is brought up to this one's migrations
  await database.migrate();
  return { database, manifest };
}
