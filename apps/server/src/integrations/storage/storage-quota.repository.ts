import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attachments, taskAttachments } from '../../db/schema/index.ts';

/** What the storage quota reads of the files a system keeps, and its lock (pass the upload's transaction). */
export function createStorageQuotaRepository(db: Db) {
  return {
    /**
     * Bytes of the files a system keeps (incident and comment files, task files): the sizes recorded
     * in the database, read from the (system_id, size) indexes, never by walking the disk.
     */
    async storageUsage(systemId: number): Promise<number> {
      let used = 0;
      for (const table of [attachments, taskAttachments]) {
        const [row] = await db
          .select({ used: sql<string | number>`coalesce(sum(${table.size}), 0)` })
          .from(table)
          .where(eq(table.systemId, systemId));
        used += Number(row?.used ?? 0);
      }
      return used;
    },

    /** Takes the system's quota lock until the end of the transaction (uploads take their turn). */
    async lockSystemQuota(systemId: number): Promise<void> {
      await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext('storage-quota'), ${systemId})`);
    },
  };
}
