import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

/** Inserts an audit entry; its id. */
export async function insertAuditEntry(db: Db, values: typeof auditLog.$inferInsert): Promise<number> {
  const [row] = await db.insert(auditLog).values(values).returning({ id: auditLog.id });
  return row!.id;
}
