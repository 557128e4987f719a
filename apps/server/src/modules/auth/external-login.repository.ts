import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginTickets, oidcLoginStates, userIdentities, users } from '../../db/schema/index.ts';
import type { UserRow } from './auth.repository.ts';

/** SQL of sign-ins through external identity providers (OIDC, SSO proxy). */
export function createExternalLoginRepository(db: Db) {
  return {
    /**
     * Ends an administrator's temporary password that is still waiting to be changed, leaving the
     * account no usable password (NO_PASSWORD); false when there was none.
     */
    async voidTemporaryPassword(userId: number, noPassword: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ passwordHash: noPassword, temporaryPasswordExpiresAt: null, updatedAt: new Date() })
        .where(and(eq(users.id, userId), sql`${users.temporaryPasswordExpiresAt} IS NOT NULL`))
        .returning({ id: users.id });
      return rows.length > 0;
    },
    async findUserByIdentity(issuer: string, subject: string): Promise<UserRow | undefined> {
      const rows = await db
        .select({ user: users })
        .from(userIdentities)
        .innerJoin(users, eq(users.id, userIdentities.userId))
        .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
        .limit(1);
      return rows[0]?.user;
    },

    /** Users whose e-mail equals `email`, case-insensitively (at most two: more is ambiguous anyway). */
    async findUsersByEmail(email: string): Promise<UserRow[]> {
      return db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(2);
    },

    async findUsersByUsername(username: string): Promise<UserRow[]> {
      return db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
    },

    async linkIdentity(userId: number, issuer: string, subject: string): Promise<void> {
      await db.insert(userIdentities).values({ userId, issuer, subject }).onConflictDoNothing();
    },

    async usernameTaken(username: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
      return rows.length > 0;
    },

    async insertUser(row: typeof users.$inferInsert): Promise<UserRow> {
      const rows = await db.insert(users).values(row).returning();
      return rows[0]!;
    },

    async insertState(row: typeof oidcLoginStates.$inferInsert): Promise<void> {
      await db.delete(oidcLoginStates).where(sql`${oidcLoginStates.expiresAt} < now()`);
      await db.insert(oidcLoginStates).values(row);
    },

    /** Removes and returns an unexpired flow state: each state is usable once. */
    async takeState(stateHash: string) {
      const rows = await db
        .delete(oidcLoginStates)
        .where(and(eq(oidcLoginStates.stateHash, stateHash), gt(oidcLoginStates.expiresAt, sql`now()`)))
        .returning();
      return rows[0];
    },

    async insertTicket(row: typeof loginTickets.$inferInsert): Promise<void> {
      await db.delete(loginTickets).where(sql`${loginTickets.expiresAt} < now()`);
      await db.insert(loginTickets).values(row);
    },

    /** Removes and returns an unexpired ticket: each ticket is exchanged once. */
    async takeTicket(ticketHash: string) {
      const rows = await db
        .delete(loginTickets)
        .where(and(eq(loginTickets.ticketHash, ticketHash), gt(loginTickets.expiresAt, sql`now()`)))
        .returning();
      return rows[0];
    },
  };
}

export type ExternalLoginRepository = ReturnType<typeof createExternalLoginRepository>;
