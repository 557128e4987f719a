import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { queryRows } from '../client.ts';
import type { DerivedTable } from './derived-sql.ts';
import { DERIVED_TABLES } from './index.ts';

/** A row of a derived table that its recount does not give. */
export interface DerivedDifference {
  table: string;
  /** The row's key columns and values (`system_id=3, dim=status, value=new`). */
  key: string;
  /** What the table holds (null: no row). */
  stored: string | null;
  /** What the recount gives (null: no row). */
  recounted: string | null;
}

export interface DerivedCheck {
  differences: DerivedDifference[];
  /** Per table, how many rows differ (more than `differences` lists when over the limit). */
  counts: Record<string, number>;
}

/**
 * The stored rows of one table beside its recount, where they differ. A stored 0 agrees with no
 * recounted row (counts that fell to zero stay), unless the table says otherwise (`absent`).
 */
function differenceQuery(t: DerivedTable, limit: number) {
  const keys = t.keys.join(', ');
  const absent = t.absent ?? '0';
  const on = t.keys.map((k) => `s.${k} = r.${k}`).join(' AND ');
  const key = t.keys.map((k) => `'${k}=' || coalesce(s.${k}, r.${k})::text`).join(`, `);
  return sql.raw(`WITH s AS (SELECT ${keys}, ${t.value} AS v FROM ${t.table}),
      r (${keys}, v) AS (${t.recount}),
      d AS (SELECT concat_ws(', ', ${key}) AS key, s.v::text AS stored, r.v::text AS recounted
              FROM s FULL JOIN r ON ${on}
             WHERE coalesce(s.v, ${absent}) IS DISTINCT FROM coalesce(r.v, ${absent}))
    SELECT key, stored, recounted, count(*) OVER () AS total FROM d ORDER BY key LIMIT ${limit}`);
}

/** Compares every derived table with a recount from its source tables; lists up to `limit` rows per table. */
export async function checkDerived(db: Db, limit = 100): Promise<DerivedCheck> {
  const check: DerivedCheck = { differences: [], counts: {} };
  for (const t of DERIVED_TABLES) {
    const rows = await queryRows<Omit<DerivedDifference, 'table'> & { total: string | number }>(
      db,
      differenceQuery(t, limit),
    );
    check.counts[t.table] = Number(rows[0]?.total ?? 0);
    for (const { total: _, ...row } of rows) check.differences.push({ table: t.table, ...row });
  }
  return check;
}

/**
 * Makes every derived table agree with its recount, with the writers of their source tables held
 * off (SHARE locks: readers go on), and moves `cache_epoch` so that no cached page keeps a count
 * from before.
 */
export async function rebuildDerived(db: Db): Promise<void> {
  const sources = [...new Set(DERIVED_TABLES.flatMap((t) => t.sources))].sort();
  const rebuilds = [...new Set(DERIVED_TABLES.map((t) => t.rebuild))];
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`LOCK TABLE ${sources.join(', ')} IN SHARE MODE`));
    for (const statement of rebuilds) await tx.execute(sql.raw(statement));
    await tx.execute(sql`UPDATE cache_epoch SET n = n + 1`);
  });
}
