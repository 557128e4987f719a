import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../query.ts';
import { queryRows } from '../query.ts';
import { DERIVED_SQL } from './index.ts';

/** Arbitrary constant identifying the lock of `applyDerived` among advisory locks. */
const DERIVED_LOCK_ID = 7_204_312;

/**
 * Declares every function and trigger of `DERIVED_SQL`, after the migrations, in one transaction
 * under an advisory lock (two instances starting at once take turns), and notes what it declared
 * in `derived_state`: the statements and the newest migration. When neither changed since, nothing
 * is declared again: dropping and creating a trigger locks its table against readers, which a
 * start must not do to the instances already serving. `force` declares them all the same.
 * Returns whether it declared them.
 */
export async function applyDerived(db: Db, options: { force?: boolean } = {}): Promise<boolean> {
  const statements = DERIVED_SQL.flatMap((d) => d.statements);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${DERIVED_LOCK_ID})`);
    const [migration] = await queryRows<{ hash: string }>(
      tx,
      sql`SELECT hash FROM drizzle.__drizzle_migrations ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    const checksum = createHash('sha256')
      .update(statements.join('\n;\n'))
      .update(`\n-- after migration ${migration?.hash ?? 'none'}`)
      .digest('hex');
    const [state] = await queryRows<{ checksum: string }>(tx, sql`SELECT checksum FROM derived_state`);
    if (!options.force && state?.checksum === checksum) return false;
    for (const statement of statements) await tx.execute(sql.raw(statement));
    await tx.execute(sql`INSERT INTO derived_state (id, checksum, applied_at) VALUES (true, ${checksum}, now())
      ON CONFLICT (id) DO UPDATE SET checksum = excluded.checksum, applied_at = excluded.applied_at`);
    return true;
  });
}
