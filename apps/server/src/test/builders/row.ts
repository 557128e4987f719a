import { randomBytes } from 'node:crypto';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { PgTable, SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import type { TestContext } from '../harness.ts';

/** A random tag for the names of built rows, so that builders can run on any template. */
export const tag = () => randomBytes(4).toString('hex');

/** Inserts one row of `table` and returns its `columns`: the body every single-row builder shares. */
export async function insertRow<T extends PgTable, C extends SelectedFieldsFlat>(
  ctx: TestContext,
  table: T,
  values: T['$inferInsert'],
  columns: C,
): Promise<SelectResultFields<C>> {
  // drizzle cannot resolve the shape of `returning` for a generic table: it is that of `columns`
  const rows = (await ctx.database.db
    .insert(table)
    .values(values)
    .returning(columns)) as SelectResultFields<C>[];
  return rows[0]!;
}
