import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Readable } from 'node:stream';
import { PgDialect } from 'drizzle-orm/pg-core';
import { applyDerived } from './derived/apply.ts';
import type { Db, Tx } from './query.ts';
import * as schema from './schema/index.ts';
import { checkWorkMem } from './work-mem.ts';
import { ensurePrivateDir, restrictTree } from '../core/private-files.ts';

export type { Db, Tx } from './query.ts';
export { queryRows } from './query.ts';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies pending migrations, then declares the functions and triggers of db/derived when they
   * or the migrations changed; safe to call from several instances at once.
   */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Opens every connection of the pool with its session settings, so that a new instance's
   * first requests do not wait for connections opened under load (the pool then keeps them).
   */
  warm(): Promise<void>;
  /**
   * `COPY (query) TO STDOUT WITH (options)` as a byte stream, on PostgreSQL only (the embedded
   * engine cannot stream it); the connection returns to the pool when the stream ends or fails.
   */
  copyOut?: (query: SQL, options: string) => Promise<Readable>;
  /** The pool's connections and the queries waiting for one (PostgreSQL only; read by the metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /** The embedded engine's whole data directory as a tarball (PGlite only; tests reuse it as a template). */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * LISTENs to a channel: `onPayload` gets each NOTIFY payload, delivered on commit. On PostgreSQL
   * a dedicated connection (outside the pool) listens and reconnects after a failure; PGlite
   * delivers its own notifications. `onLive(false)` says that notifications may have been missed
   * (the connection is gone), `onLive(true)` that the channel is listened to again. Resolves to the
   * function that stops listening.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLive?: (live: boolean) => void,
  ): Promise<() => Promise<void>>;
  /**
   * Runs `run` under the advisory lock `lockId` (PostgreSQL: held on a connection of its own, so
   * that instances starting together take turns; the embedded engine serves one process: at once).
   */
  withLock<T>(lockId: number, run: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The LISTEN connection's first retry after a loss; each further one waits twice as long, up to the cap. */
const LISTEN_RETRY_MS = 1_000;
const LISTEN_RETRY_MAX_MS = 30_000;
/** How long connecting may take before it counts as failed (a host that drops packets). */
const CONNECT_TIMEOUT_MS = 5_000;
/** The LISTEN connection's name in `pg_stat_activity` (fault tests tell it apart by it too). */
export const LISTEN_APPLICATION_NAME = 'soc-portal-listen';

/**
 * LISTEN on its own pg connection, reconnecting until stopped. A lost connection (its `error` or
 * `end`) never throws: it says `onLive(false)` and connects again after a capped exponential
 * backoff; a first connect that fails does the same, so the server starts without its database.
 */
async function listenPg(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onLive: (live: boolean) => void = () => undefined,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_MS;
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, LISTEN_RETRY_MAX_MS);
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: url,
      application_name: LISTEN_APPLICATION_NAME,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // a peer that vanished without closing (a cut network) is noticed, not listened to forever
      keepAlive: true,
    });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (client === c) {
        // events committed until it listens again are missed here (the bus replays them)
        client = undefined;
        onLive(false);
      }
      void c.end().catch(() => undefined);
      schedule();
    };
    // a cut connection emits 'error' and then 'end': both handled, neither thrown
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      onLost();
      return;
    }
    if (lost) return;
    if (stopped) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    delay = LISTEN_RETRY_MS;
    onLive(true);
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    retry = undefined;
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
}

/**
 * Runs `run` while this connection, opened for it outside the pool (so that `run` may use every
 * pooled one), holds PostgreSQL's session advisory lock `lockId`: instances that start together
 * take turns. A connection lost meanwhile fails its own query, never the process.
 */
async function withAdvisoryLockPg<T>(url: string, lockId: number, run: () => Promise<T>): Promise<T> {
  const c = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT pg_advisory_lock($1)', [lockId]);
    return await run();
  } finally {
    await c.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    await c.end().catch(() => undefined);
  }
}

/**
 * `db.transaction` on the pool that always gives its connection back. drizzle's own (0.45) sends
 * BEGIN before its try block, so a connection cut under a BEGIN stayed checked out for good (the
 * pool then shrank by one per cut and `close()` waited for it forever). Here the connection is
 * checked out by the pool and released in every case, and dropped when it failed meanwhile.
 */
function transactionReleasingItsClient(pool: pg.Pool, db: Db): Db['transaction'] {
  // the pool's session holds the dialect, the relational schema and the options (logger, cache)
  const pooled = db._.session as unknown as {
    dialect: ConstructorParameters<typeof NodePgSession>[1];
    schema: ConstructorParameters<typeof NodePgSession>[2];
    options: ConstructorParameters<typeof NodePgSession>[3];
  };
  return async <T>(run: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    const client = await pool.connect();
    let lost: Error | undefined;
    const onLost = (err?: Error) => (lost ??= err ?? new Error('database connection ended'));
    client.on('error', onLost);
    client.once('end', onLost);
    try {
      // a session on this one connection: its transaction sends BEGIN … COMMIT on it
      const session = new NodePgSession(client, pooled.dialect, pooled.schema, pooled.options);
      return (await session.transaction(run as Parameters<typeof session.transaction>[0], config)) as T;
    } finally {
      client.off('error', onLost);
      client.off('end', onLost);
      client.release(lost);
    }
  };
}

/**
 * `workMem`: PostgreSQL's work_mem for every connection (`32MB`). The server's default of 4 MB
 * turns the bitmap of a search matching ~100,000 of a million incidents lossy, and then every
 * row of each page it touches is checked again (several times slower: docs/performance.md).
 */
export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; workMem?: string | undefined }
  /** `loadDataDir` starts the embedded engine from a tarball that `dumpDataDir` made. */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob; workMem?: string | undefined };

/** Finds the migrations folder both from sources (src/db) and from the bundle (dist). */
export function migrationsFolder(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
  }
  throw new Error('Database migrations folder not found');
}

/** Arbitrary constant identifying the migration lock among advisory locks. */
const MIGRATION_LOCK_ID = 7_204_311;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const workMem = options.workMem ? checkWorkMem(options.workMem) : undefined;
    const size = options.poolSize ?? 10;
    // connections are kept once opened (min = max): one opened during a burst of requests costs
    // them PostgreSQL's start of a backend and the session settings (issue 31).
    // The session settings run on each new connection before the pool hands it out (not startup
    // options, which would replace the options of PGOPTIONS or of the URL and which PgBouncer
    // refuses). JIT off: the portal's statements run in milliseconds, and PostgreSQL's estimates
    // of some (a text filter's count, a search counted over a million incidents) had it compile
    // them first, for longer than they run. The work_mem value is checked above; should the server
    // still refuse a setting, the connection keeps the server's (slower, same answers).
    const settings = ['SET jit = off', ...(workMem ? [`SET work_mem = '${workMem}'`] : [])].join('; ');
    const pool = new pg.Pool({
      connectionString: options.url,
      max: size,
      min: size,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
      // awaited by the pool before it hands the connection out (a query queued behind another on
      // one client is deprecated in pg 8)
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits this promise; @types/pg declares the hook void
      onConnect: async (client) => {
        await client.query(settings).catch(() => undefined);
      },
    });
    // An idle client that loses its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    // Neither may one that is checked out (a transaction, a COPY, the request's query): pg-pool
    // listens only while a client is idle, and an unheard 'error' event is thrown. The lost
    // connection fails the queries on it (the request answers 503) and is dropped on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    // node-postgres and PGlite differ only in their result type parameter, which no query here depends on.
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    db.transaction = transactionReleasingItsClient(pool, db);
    return {
      db,
      kind: 'postgres',
      async migrate() {
        await withAdvisoryLockPg(options.url, MIGRATION_LOCK_ID, () =>
          migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder: migrationsFolder() }),
        );
        await applyDerived(db);
      },
      async ping() {
        await pool.query('SELECT 1');
      },
      async warm() {
        // all at once, each held until every one is open: the pool hands out idle ones first
        const opened = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
        const clients = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
        // a query queued after the session settings: answered once they were applied
        const checked = await Promise.allSettled(
          clients.map((c) =>
            c.query('SELECT 1').then(
              () => c.release(),
              (err: Error) => {
                c.release(err);
                throw err;
              },
            ),
          ),
        );
        const failed = checked.find((o) => o.status === 'rejected');
        if (failed) throw failed.reason;
        // a connection held meanwhile (a job's) is open too: only one that could not open counts
        if (pool.totalCount < size) {
          const refused = opened.find((o) => o.status === 'rejected');
          throw refused?.reason ?? new Error(`${pool.totalCount} of ${size} database connections open`);
        }
      },
      async copyOut(query, options) {
        const client = await pool.connect();
        try {
          const text = inlineParams(query, (v) => client.escapeLiteral(v));
          const stream = client.query(copyTo(`COPY (${text}) TO STDOUT WITH (${options})`));
          let released = false;
          const release = (err?: Error) => {
            if (released) return;
            released = true;
            // a connection whose COPY was cut short is in an unknown state: drop it
            client.release(err ?? !stream.readableEnded);
          };
          stream.once('end', () => release());
          stream.once('error', release);
          stream.once('close', () => release());
          return stream;
        } catch (err) {
          client.release(true);
          throw err;
        }
      },
      listen: (channel, onPayload, onLive) => listenPg(options.url, channel, onPayload, onLive),
      withLock: (lockId, run) => withAdvisoryLockPg(options.url, lockId, run),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: size,
      }),
      async close() {
        await pool.end();
      },
    };
  }

  const workMem = options.workMem ? checkWorkMem(options.workMem) : undefined;
  // the database is the customers' data: the server's user only (its own files are narrowed
  // once it has created them, and after migrating; main.ts's umask covers later ones)
  if (options.dataDir) ensurePrivateDir(options.dataDir);
  // the extensions that migrations create must be loaded into the embedded engine first
  const client = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  await client.waitReady;
  if (options.dataDir) restrictTree(options.dataDir);
  if (workMem) await client.exec(`SET work_mem = '${workMem}'`);
  const pgliteDb = drizzlePglite({ client, schema });
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(pgliteDb, { migrationsFolder: migrationsFolder() });
      await applyDerived(pgliteDb);
      if (options.dataDir) restrictTree(options.dataDir);
    },
    async ping() {
      await pgliteDb.execute(sql`SELECT 1`);
    },
    // the embedded engine runs in this process: nothing to open
    async warm() {
      await pgliteDb.execute(sql`SELECT 1`);
    },
    dumpDataDir: () => client.dumpDataDir('none'),
    listen: async (channel, onPayload, onLive) => {
      const stop = await client.listen(channel, onPayload);
      // the embedded engine runs in this process: its notifications cannot be missed
      onLive?.(true);
      return stop;
    },
    // one process holds the embedded database's folder: nobody to take turns with
    withLock: (_lockId, run) => run(),
    async close() {
      await client.close();
    },
  };
}

const dialect = new PgDialect();

/**
 * The text of a query with its parameters written in as literals, for statements that take no
 * parameters (COPY). Parameters come only from drizzle's `sql` values: numbers, booleans, strings
 * (escaped by the driver) and null; the query texts here hold no `$n` inside string literals.
 */
export function inlineParams(query: SQL, escapeLiteral: (value: string) => string): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)\b/g, (_, n: string) => {
    const value: unknown = params[Number(n) - 1];
    if (value === null) return 'NULL';
    // in parentheses: `1-${-3}` must not become the comment `1--3`
    if (typeof value === 'number' && Number.isFinite(value)) return value < 0 ? `(${value})` : String(value);
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    if (typeof value === 'string') return escapeLiteral(value);
    throw new Error(`Cannot inline a parameter of type ${typeof value}`);
  });
}

/** A JSON column as the drivers return it: parsed (node-postgres) or as text (PGlite in raw SQL). */
export const parseJson = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

/**
 * As `queryRows`, as a named (prepared) statement on PostgreSQL: each pooled connection parses
 * and plans it once and then only binds and executes it, which saves the planning of a hot
 * statement on every request. The name is derived from the text, as node-postgres requires one
 * text per name; so use it only for statements whose text takes few shapes (each shape stays
 * prepared on every connection of the pool). The embedded engine runs it as any other query.
 */
export async function queryRowsNamed<T>(db: Db, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery({ sql: text, params }, undefined, statementName(text), false);
  const result: unknown = await prepared.execute();
  return (result as { rows: T[] }).rows;
}

/** The name of a prepared statement: one per text, as node-postgres requires. */
function statementName(text: string): string {
  return `soc_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/** A query builder that can be prepared under a name (a drizzle select). */
export interface PreparableQuery<T> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<T> };
}

/**
 * As `queryRowsNamed`, for a query builder (a drizzle select): its rows mapped to its fields as
 * awaiting the builder maps them. The same rule holds: only for texts of few shapes.
 */
export function executeNamed<T>(query: PreparableQuery<T>): Promise<T> {
  return query.prepare(statementName(query.toSQL().sql)).execute();
}
