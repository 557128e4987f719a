import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import type { TriggerRef } from '../db/derived/index.ts';
import { triggerSwitch } from '../db/derived/index.ts';

/** Drops the non-unique indexes of the tables and returns the statements that recreate them. */
export async function dropSecondaryIndexes(db: Db, tables: string[]): Promise<string[]> {
  const rows = await queryRows<{ name: string; definition: string }>(
    db,
    sql`SELECT i.indexname AS name, i.indexdef AS definition
          FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
         WHERE i.schemaname = 'public' AND i.tablename IN (${sql.join(
           tables.map((t) => sql`${t}`),
           sql`, `,
         )}) AND NOT x.indisunique AND NOT x.indisprimary`,
  );
  for (const row of rows) await db.execute(sql.raw(`DROP INDEX "${row.name.replace(/"/g, '')}"`));
  return rows.map((r) => r.definition);
}

/** Switches triggers off for a bulk load (the load recounts once at its end) or on again. */
export async function switchTriggers(db: Db, triggers: TriggerRef[], enabled: boolean): Promise<void> {
  for (const t of triggers) await db.execute(sql.raw(triggerSwitch(t, enabled)));
}
