import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attachments, taskAttachments } from '../../db/schema/index.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Bytes of the files a system keeps (incident and comment files, task files): the sizes recorded
 * in the database, read from the (system_id, size) indexes, never by walking the disk.
 */
export async function storageUsage(db: Db | Tx, systemId: number): Promise<number> {
  let used = 0;
  for (const table of [attachments, taskAttachments]) {
    const [row] = await db
      .select({ used: sql<string | number>`coalesce(sum(${table.size}), 0)` })
      .from(table)
      .where(eq(table.systemId, systemId));
    used += Number(row?.used ?? 0);
  }
  return used;
}

/** Takes the system's quota lock until the end of the transaction (uploads take their turn). */
export async function lockSystemQuota(tx: Tx, systemId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('storage-quota'), ${systemId})`);
}
