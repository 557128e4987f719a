import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from './client.ts';
import { executeNamed, inlineParams, openDatabase, queryRows } from './client.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite' });
});
afterAll(() => database.close());

const escape = (value: string) => new pg.Client().escapeLiteral(value);

describe('inlineParams (the text of COPY statements)', () => {
  it('writes parameters as literals that read back as the same values', async () => {
    const hostile = `O'Brien\\'); DROP TABLE users; -- $1 «ё»`;
    const text = inlineParams(
      sql`SELECT ${hostile}::text AS s, ${-5} AS n, ${2.5} AS f, ${true} AS b, ${null}::text AS z, ${10}-${-3} AS d`,
      escape,
    );
    // one pass: the `$1` inside the written string stays text
    expect(text).toContain('-- $1');
    const [row] = await queryRows<Record<string, unknown>>(database.db, sql.raw(text));
    expect(row).toEqual({ s: hostile, n: -5, f: '2.5', b: true, z: null, d: 13 });
  });

  it('refuses a parameter it cannot write safely', () => {
    expect(() => inlineParams(sql`SELECT ${new Date(0)}`, escape)).toThrow(/Cannot inline/);
    expect(() => inlineParams(sql`SELECT ${Number.NaN}`, escape)).toThrow(/Cannot inline/);
  });
});

/** The same select on one connection: a named statement is parsed once and bound again. */
async function checkExecuteNamed(db: Pick<Db, 'select'>) {
  const query = (name: string, upTo: number) =>
    db
      .select({
        rowNumber: sql<number>`v.n`.mapWith(Number),
        shout: sql<string>`upper(${name}::text)`,
      })
      .from(sql`(VALUES (1), (2), (3)) AS v(n)`)
      .where(sql`v.n <= ${upTo}`)
      .orderBy(sql`v.n`);
  expect(await executeNamed(query('a', 2))).toEqual([
    { rowNumber: 1, shout: 'A' },
    { rowNumber: 2, shout: 'A' },
  ]);
  expect(await executeNamed(query('b', 1))).toEqual([{ rowNumber: 1, shout: 'B' }]);
  expect(await executeNamed(query('c', 0))).toEqual([]);
}

describe('executeNamed (a drizzle select as a named statement)', () => {
  it('maps the rows to the select’s fields, with each call’s own parameters (PGlite)', () =>
    checkExecuteNamed(database.db));

  it.runIf(process.env.TEST_DATABASE_URL)('does so on one PostgreSQL connection', async () => {
    const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
    try {
      await checkExecuteNamed(drizzle(pool));
    } finally {
      await pool.end();
    }
  });
});

describe('work_mem of the portal’s connections', () => {
  const workMem = async (db: Db) =>
    (await queryRows<{ work_mem: string }>(db, sql`SELECT current_setting('work_mem') AS work_mem`))[0]!
      .work_mem;

  it('sets it on the embedded engine and refuses a value that is not a size', async () => {
    const embedded = await openDatabase({ kind: 'pglite', workMem: '24MB' });
    try {
      expect(await workMem(embedded.db)).toBe('24MB');
    } finally {
      await embedded.close();
    }
    for (const bad of ["1MB'; DROP TABLE users; --", '1kB', '9999999GB', '32 MB'])
      await expect(openDatabase({ kind: 'pglite', workMem: bad }), bad).rejects.toThrow(/Invalid work_mem/);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'sets it, and JIT off, on every PostgreSQL connection of the pool',
    async () => {
      const server = await openDatabase({
        kind: 'postgres',
        url: process.env.TEST_DATABASE_URL!,
        poolSize: 3,
        workMem: '24MB',
      });
      try {
        // several at once, so that the pool opens more than one connection
        const values = await Promise.all(
          Array.from({ length: 6 }, () =>
            queryRows<{ work_mem: string; jit: string }>(
              server.db,
              sql`SELECT current_setting('work_mem') AS work_mem, current_setting('jit') AS jit, pg_sleep(0.05)`,
            ),
          ),
        );
        expect(new Set(values.map(([row]) => `${row!.work_mem} jit=${row!.jit}`))).toEqual(
          new Set(['24MB jit=off']),
        );
      } finally {
        await server.close();
      }
    },
  );
});

describe('warm (a new instance opens its pool before it answers ready)', () => {
  it('answers on the embedded engine', async () => {
    const embedded = await openDatabase({ kind: 'pglite' });
    try {
      await expect(embedded.warm()).resolves.toBeUndefined();
    } finally {
      await embedded.close();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('opens every connection of the PostgreSQL pool', async () => {
    const name = `warm-test-${process.pid}-${Date.now()}`;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('application_name', name);
    const server = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 3 });
    const observer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await observer.connect();
    const open = async () =>
      Number(
        (
          await observer.query<{ n: string }>(
            'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1',
            [name],
          )
        ).rows[0]!.n,
      );
    try {
      expect(await open()).toBe(0);
      await server.warm();
      expect(await open()).toBe(3);
      // and their session settings were applied before they were handed out
      const [row] = await queryRows<{ jit: string }>(server.db, sql`SELECT current_setting('jit') AS jit`);
      expect(row!.jit).toBe('off');
    } finally {
      await observer.end();
      await server.close();
    }
  });
});
