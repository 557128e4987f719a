import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';

/** A stored idempotency key (idempotency.ts decides what its state means). */
export interface IdempotencyKeyId {
  userId: number;
  scope: string;
  key: string;
}

const keyIs = ({ userId, scope, key }: IdempotencyKeyId) =>
  and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

/** The stored idempotency keys of the analyst API (idempotency.ts decides what a key's state means). */
export function createIdempotencyRepository(db: Db) {
  return {
    /** Claims the key for a call; false when it is stored already. */
    async claimKey(id: IdempotencyKeyId, call: { route: string; requestHash: string }): Promise<boolean> {
      const claimed = await db
        .insert(idempotencyKeys)
        .values({ ...id, ...call })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      return claimed.length > 0;
    },

    async findKey(id: IdempotencyKeyId) {
      const [row] = await db.select().from(idempotencyKeys).where(keyIs(id));
      return row;
    },

    /** Takes over a claim whose call has not answered since `staleBefore`; false when none. */
    async takeOverStaleClaim(id: IdempotencyKeyId, staleBefore: Date): Promise<boolean> {
      const taken = await db
        .update(idempotencyKeys)
        .set({ createdAt: new Date() })
        .where(and(keyIs(id), isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, staleBefore)))
        .returning({ key: idempotencyKeys.key });
      return taken.length > 0;
    },

    async releaseKey(id: IdempotencyKeyId): Promise<void> {
      await db.delete(idempotencyKeys).where(keyIs(id));
    },

    async storeAnswer(id: IdempotencyKeyId, statusCode: number, response: unknown) {
      await db.update(idempotencyKeys).set({ statusCode, response }).where(keyIs(id));
    },

    /** Forgets the keys older than `hours`. */
    async pruneKeys(hours: number): Promise<void> {
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${hours})`));
    },
  };
}
