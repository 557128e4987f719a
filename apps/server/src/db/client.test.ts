import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { inlineParams, openDatabase, queryRows } from './client.ts';

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
