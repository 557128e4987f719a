import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

export interface AuditEntry {
  userId: number | null;
  action: string;
  objectType: string;
  objectId?: string | number;
  /** The caller's address. */
  ip: string;
  /** The caller's User-Agent, for sign-in related entries. */
  userAgent?: string;
  /** Never secrets: no passwords, tokens or codes. */
  details?: Record<string, unknown>;
}

/** Records who did what, when and from where (DESIGN §5). */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId === undefined ? '' : String(entry.objectId),
    ip: entry.ip,
    userAgent: (entry.userAgent ?? '').slice(0, 512),
    details: entry.details ?? {},
  });
}
