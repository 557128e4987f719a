import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

/** The writes of the audit log (a transaction's when db is one). */
export function createAuditLogRepository(db: Db) {
  return {
    /** Inserts an audit entry; its id. */
    async insertAuditEntry(values: typeof auditLog.$inferInsert): Promise<number> {
      const [row] = await db.insert(auditLog).values(values).returning({ id: auditLog.id });
      return row!.id;
    },
  };
}
