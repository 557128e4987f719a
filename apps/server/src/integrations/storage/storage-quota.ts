import { HttpError } from '../../lib/http-errors.ts';
import type { Tx } from '../../db/client.ts';
import { createStorageQuotaRepository } from './storage-quota.repository.ts';
import { msg } from '../../lib/messages.ts';

export { createStorageQuotaRepository };

/** The code of the 507 answer of an upload over its system's quota. */
export const STORAGE_QUOTA_EXCEEDED_CODE = 'storage_quota_exceeded';

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(bytes < 1024 ** 3 ? 3 : 1)} GB`;

/** Whether `files` fit in the system's quota, taking its lock: null when they do. */
async function quotaShortfall(
  tx: Tx,
  systemId: number,
  files: readonly { size: number }[],
  quotaBytes: number,
): Promise<{ used: number; adding: number } | null> {
  const adding = files.reduce((sum, f) => sum + f.size, 0);
  if (!quotaBytes || adding === 0) return null;
  const quota = createStorageQuotaRepository(tx);
  await quota.lockSystemQuota(systemId);
  const used = await quota.storageUsage(systemId);
  return used + adding <= quotaBytes ? null : { used, adding };
}

/**
 * Like checkStorageQuota, for writers that keep what they got without the files (a reply by
 * mail): false instead of the 507 when the files would take the system past its quota.
 */
export async function fitsStorageQuota(
  tx: Tx,
  systemId: number,
  files: readonly { size: number }[],
  quotaBytes: number,
): Promise<boolean> {
  return !(await quotaShortfall(tx, systemId, files, quotaBytes));
}

/**
 * Refuses (507, nothing recorded) files that would take `systemId` past `quotaBytes`; 0 is no
 * quota. Call it in the transaction that records the files: a transaction-scoped advisory lock
 * per system makes concurrent uploads of one system take their turn, so that two of them cannot
 * both fit in the last free bytes. The caller removes the staged objects when this throws.
 */
export async function checkStorageQuota(
  tx: Tx,
  systemId: number,
  files: readonly { size: number }[],
  quotaBytes: number,
): Promise<void> {
  const over = await quotaShortfall(tx, systemId, files, quotaBytes);
  if (!over) return;
  const { used, adding } = over;
  const detail = msg('storageQuota', gib(used), gib(quotaBytes), gib(adding));
  throw new HttpError(
    507,
    detail,
    undefined,
    {},
    {
      detail,
      code: STORAGE_QUOTA_EXCEEDED_CODE,
      quota_bytes: quotaBytes,
      used_bytes: used,
    },
  );
}
