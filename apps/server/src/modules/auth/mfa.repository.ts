import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mfaChallenges } from '../../db/schema/index.ts';

export type MfaChallengeRow = typeof mfaChallenges.$inferSelect;

/** SQL of the pending second-factor sign-ins. */
export function createMfaRepository(db: Db) {
  return {
    async insert(row: typeof mfaChallenges.$inferInsert): Promise<MfaChallengeRow> {
      // a pending sign-in is dead after 15 minutes; keep a day of them for the hourly SMS cap
      await db
        .delete(mfaChallenges)
        .where(
          and(
            eq(mfaChallenges.userId, row.userId),
            lt(mfaChallenges.createdAt, sql`now() - interval '1 day'`),
          ),
        );
      const rows = await db.insert(mfaChallenges).values(row).returning();
      return rows[0]!;
    },

    /** An open, unexpired pending sign-in by the hash of its token. */
    async findOpen(tokenHash: string): Promise<MfaChallengeRow | undefined> {
      const rows = await db
        .select()
        .from(mfaChallenges)
        .where(
          and(
            eq(mfaChallenges.tokenHash, tokenHash),
            eq(mfaChallenges.purpose, 'sign_in'),
            isNull(mfaChallenges.closedAt),
            gt(mfaChallenges.expiresAt, sql`now()`),
          ),
        )
        .limit(1);
      return rows[0];
    },

    /** The user's latest open SMS code for a change of second factors. */
    async findOpenChange(userId: number): Promise<MfaChallengeRow | undefined> {
      const rows = await db
        .select()
        .from(mfaChallenges)
        .where(
          and(
            eq(mfaChallenges.userId, userId),
            eq(mfaChallenges.purpose, 'mfa_change'),
            isNull(mfaChallenges.closedAt),
            gt(mfaChallenges.expiresAt, sql`now()`),
          ),
        )
        .orderBy(desc(mfaChallenges.createdAt))
        .limit(1);
      return rows[0];
    },

    async storeCode(id: string, codeHash: string, codeExpiresAt: Date): Promise<void> {
      await db
        .update(mfaChallenges)
        .set({
          codeHash,
          codeExpiresAt,
          lastSentAt: new Date(),
          sends: sql`${mfaChallenges.sends} + 1`,
        })
        .where(eq(mfaChallenges.id, id));
    },

    /**
     * Counts a wrong code; the `maxFailures`-th closes the sign-in. Returns the failures so far,
     * or null when the sign-in was already closed (a concurrent request won).
     */
    async recordFailure(id: string, maxFailures: number): Promise<number | null> {
      const rows = await db
        .update(mfaChallenges)
        .set({
          failures: sql`${mfaChallenges.failures} + 1`,
          closedAt: sql`CASE WHEN ${mfaChallenges.failures} + 1 >= ${maxFailures} THEN now() ELSE NULL END`,
        })
        .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.closedAt)))
        .returning({ failures: mfaChallenges.failures });
      return rows[0]?.failures ?? null;
    },

    /** Closes an open sign-in; false when it was closed already (the code was used). */
    async close(id: string): Promise<boolean> {
      const rows = await db
        .update(mfaChallenges)
        .set({ closedAt: new Date() })
        .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.closedAt)))
        .returning({ id: mfaChallenges.id });
      return rows.length === 1;
    },

    /** Codes sent to a user during the last hour, over all their sign-ins. */
    async sendsInLastHour(userId: number): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`coalesce(sum(${mfaChallenges.sends}), 0)::int` })
        .from(mfaChallenges)
        .where(
          and(eq(mfaChallenges.userId, userId), gt(mfaChallenges.createdAt, sql`now() - interval '1 hour'`)),
        );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

export type MfaRepository = ReturnType<typeof createMfaRepository>;
