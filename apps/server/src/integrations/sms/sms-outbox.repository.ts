import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsOutbox } from '../../db/schema/index.ts';

/** The outbox of the embedded SMS gateway. */
export function createSmsOutboxRepository(db: Db) {
  return {
    /** Keeps a message in the `sms_outbox` table (the embedded gateway of the demo). */
    async insertOutboxMessage(phone: string, body: string): Promise<void> {
      await db.insert(smsOutbox).values({ phone, body });
    },

    /** The newest outbox messages, for the development-only page. */
    async listOutbox(limit = 50) {
      return db.select().from(smsOutbox).orderBy(desc(smsOutbox.id)).limit(limit);
    },
  };
}
