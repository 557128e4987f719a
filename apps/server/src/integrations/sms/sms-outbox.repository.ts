import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsOutbox } from '../../db/schema/index.ts';

/** Keeps a message in the `sms_outbox` table (the embedded gateway of the demo). */
export async function insertOutboxMessage(db: Db, phone: string, body: string): Promise<void> {
  await db.insert(smsOutbox).values({ phone, body });
}

/** The newest outbox messages, for the development-only page. */
export async function listOutbox(db: Db, limit = 50) {
  return db.select().from(smsOutbox).orderBy(desc(smsOutbox.id)).limit(limit);
}
