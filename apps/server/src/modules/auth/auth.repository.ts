import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AuthUser } from '../../core/auth.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { auditLog, refreshTokens, serviceTokens, users } from '../../db/schema/index.ts';
import { createLoginThrottleRepository } from '../tokens/index.ts';

export type UserRow = typeof users.$inferSelect;

export function createAuthRepository(db: Db) {
  return {
    // the lock against guessing credentials, shared with the API tokens
    ...createLoginThrottleRepository(db),

    async findUserByUsername(username: string): Promise<UserRow | undefined> {
      const rows = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
      return rows[0];
    },

    async findUserById(id: number): Promise<UserRow | undefined> {
      const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return rows[0];
    },

    /**
     * One round trip: the user, their systems and whether the session is still open. For a
     * session, `sessionExpiresAt` is when its last live refresh token expires (this process's
     * clock, measured from before the query: never later than the database's own time).
     */
    async loadAuthUser(userId: number, sessionId: string | null): Promise<AuthUser | undefined> {
      const started = Date.now();
      const rows = await queryRows<{
        id: number;
        username: string;
        role: AuthUser['role'];
        is_active: boolean;
        system_ids: number[] | null;
        session_ms_left: number | string | null;
        must_change_password: boolean;
      }>(
        db,
        sql`
        SELECT u.id, u.username, u.role, u.is_active,
               u.temporary_password_expires_at IS NOT NULL AS must_change_password,
               (SELECT array_agg(us.system_id ORDER BY us.system_id) FROM user_systems us WHERE us.user_id = u.id) AS system_ids,
               ${
                 sessionId === null
                   ? sql`NULL::float8`
                   : sql`(SELECT extract(epoch FROM max(rt.expires_at) - now())::float8 * 1000 FROM refresh_tokens rt
                        WHERE rt.family_id = ${sessionId} AND rt.revoked_at IS NULL AND rt.expires_at > now())`
               } AS session_ms_left
          FROM users u WHERE u.id = ${userId}`,
      );
      const row = rows[0];
      if (!row) return undefined;
      const msLeft = row.session_ms_left === null ? null : Number(row.session_ms_left);
      return {
        id: row.id,
        username: row.username,
        role: row.role,
        isActive: row.is_active,
        systemIds: row.system_ids ?? [],
        sessionAlive: msLeft !== null,
        sessionExpiresAt: msLeft === null ? null : started + msLeft,
        mustChangePassword: row.must_change_password,
      };
    },

    /** The user's own new password: a temporary one ends with it. */
    async setPassword(userId: number, passwordHash: string): Promise<void> {
      await db
        .update(users)
        .set({
          passwordHash,
          passwordChangedAt: new Date(),
          temporaryPasswordExpiresAt: null,
          updatedAt: new Date(),
        })
        .where(eq(users.id, userId));
    },

    async setTotp(
      userId: number,
      values: Partial<Pick<UserRow, 'totpSecret' | 'totpPendingSecret' | 'totpEnabledAt' | 'totpLastStep'>>,
    ): Promise<void> {
      await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, userId));
    },

    /** Records an accepted TOTP time step; false when it (or a later one) was used already. */
    async claimTotpStep(userId: number, step: number): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(
          and(eq(users.id, userId), sql`(${users.totpLastStep} IS NULL OR ${users.totpLastStep} < ${step})`),
        )
        .returning({ id: users.id });
      return rows.length === 1;
    },

    async touchLogin(userId: number): Promise<void> {
      await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
    },

    async insertRefreshToken(row: typeof refreshTokens.$inferInsert): Promise<void> {
      await db.insert(refreshTokens).values(row);
    },

    async findRefreshToken(tokenHash: string) {
      const rows = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return rows[0];
    },

    /** Marks a token used; false when another request used it first (a reuse). */
    async markUsed(id: string): Promise<boolean> {
      const rows = await db
        .update(refreshTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
        .returning({ id: refreshTokens.id });
      return rows.length === 1;
    },

    async revokeFamily(familyId: string): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },

    /** Ends every session of a user except `keepFamilyId`. */
    async revokeOtherFamilies(userId: number, keepFamilyId: string | null): Promise<void> {
      const conditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
      if (keepFamilyId) conditions.push(ne(refreshTokens.familyId, keepFamilyId));
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(...conditions));
    },

    async auditEntry(id: number) {
      const [entry] = await db.select().from(auditLog).where(eq(auditLog.id, id));
      return entry;
    },

    async tokenOwner(tokenId: string): Promise<number | null> {
      const [token] = await db
        .select({ userId: serviceTokens.userId })
        .from(serviceTokens)
        .where(eq(serviceTokens.id, tokenId));
      return token?.userId ?? null;
    },

    async mailAddress(userId: number) {
      const [user] = await db
        .select({ email: users.email, locale: users.locale })
        .from(users)
        .where(eq(users.id, userId));
      return user;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
