import { and, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { refreshTokens, serviceTokens, systems, users } from '../../db/schema/index.ts';

export type TokenRow = typeof serviceTokens.$inferSelect;
export type TokenWithUser = TokenRow & { username: string };

/** What the auth hook needs of a presented token, in one round trip. */
export interface TokenCredential {
  id: string;
  tokenRole: 'customer' | 'analyst' | 'admin';
  tokenSystemIds: number[];
  readOnly: boolean;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  userId: number;
  username: string;
  userRole: 'customer' | 'analyst' | 'admin';
  isActive: boolean;
  userSystemIds: number[];
}

const usable = () =>
  and(
    isNull(serviceTokens.revokedAt),
    or(isNull(serviceTokens.expiresAt), gt(serviceTokens.expiresAt, sql`now()`)),
  )!;

export function createTokensRepository(db: Db) {
  const listWhere = (conditions: (SQL | undefined)[]) => and(...conditions.filter(Boolean));

  return {
    async insert(row: typeof serviceTokens.$inferInsert): Promise<TokenRow> {
      const [created] = await db.insert(serviceTokens).values(row).returning();
      return created!;
    },

    /** The token with this hash, its user and the user's systems. */
    async credential(tokenHash: string): Promise<TokenCredential | undefined> {
      const rows = await queryRows<{
        id: string;
        token_role: TokenCredential['tokenRole'];
        token_system_ids: number[];
        read_only: boolean;
        expires_at: string | Date | null;
        revoked_at: string | Date | null;
        last_used_at: string | Date | null;
        user_id: number;
        username: string;
        user_role: TokenCredential['userRole'];
        is_active: boolean;
        user_system_ids: number[] | null;
      }>(
        db,
        sql`
        SELECT t.id, t.role AS token_role, t.system_ids AS token_system_ids, t.read_only,
               t.expires_at, t.revoked_at, t.last_used_at,
               u.id AS user_id, u.username, u.role AS user_role, u.is_active,
               (SELECT array_agg(us.system_id ORDER BY us.system_id) FROM user_systems us WHERE us.user_id = u.id) AS user_system_ids
          FROM service_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = ${tokenHash}`,
      );
      const r = rows[0];
      if (!r) return undefined;
      const date = (v: string | Date | null) => (v === null ? null : new Date(v));
      return {
        id: r.id,
        tokenRole: r.token_role,
        tokenSystemIds: r.token_system_ids ?? [],
        readOnly: r.read_only,
        expiresAt: date(r.expires_at),
        revokedAt: date(r.revoked_at),
        lastUsedAt: date(r.last_used_at),
        userId: r.user_id,
        username: r.username,
        userRole: r.user_role,
        isActive: r.is_active,
        userSystemIds: r.user_system_ids ?? [],
      };
    },

    async touch(id: string, ip: string): Promise<void> {
      await db
        .update(serviceTokens)
        .set({ lastUsedAt: new Date(), lastUsedIp: ip })
        .where(eq(serviceTokens.id, id));
    },

    /** A page of tokens, newest first: of one user (personal lists) or of everyone (administrators). */
    async list(
      filter: { userId?: number; kind?: 'service' | 'personal'; includeRevoked: boolean },
      limit: number,
      offset: number,
    ): Promise<{ total: number; rows: TokenWithUser[] }> {
      const where = listWhere([
        filter.userId === undefined ? undefined : eq(serviceTokens.userId, filter.userId),
        filter.kind ? eq(serviceTokens.kind, filter.kind) : undefined,
        filter.includeRevoked ? undefined : usable(),
      ]);
      const [totalRow] = await db.select({ total: count() }).from(serviceTokens).where(where);
      const rows = await db
        .select({ token: serviceTokens, username: users.username })
        .from(serviceTokens)
        .innerJoin(users, eq(users.id, serviceTokens.userId))
        .where(where)
        .orderBy(desc(serviceTokens.createdAt), desc(serviceTokens.id))
        .limit(limit)
        .offset(offset);
      return { total: totalRow?.total ?? 0, rows: rows.map((r) => ({ ...r.token, username: r.username })) };
    },

    async countUsable(userId: number, kind: 'service' | 'personal'): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(serviceTokens)
        .where(and(eq(serviceTokens.userId, userId), eq(serviceTokens.kind, kind), usable()));
      return row?.n ?? 0;
    },

    async find(id: string): Promise<TokenWithUser | undefined> {
      const [row] = await db
        .select({ token: serviceTokens, username: users.username })
        .from(serviceTokens)
        .innerJoin(users, eq(users.id, serviceTokens.userId))
        .where(eq(serviceTokens.id, id))
        .limit(1);
      return row && { ...row.token, username: row.username };
    },

    /** Marks a token revoked; false when it was revoked already. */
    async revoke(id: string): Promise<boolean> {
      const rows = await db
        .update(serviceTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(serviceTokens.id, id), isNull(serviceTokens.revokedAt)))
        .returning({ id: serviceTokens.id });
      return rows.length === 1;
    },

    /** Those of `ids` that are systems. */
    async existingSystems(ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await db.select({ id: systems.id }).from(systems).where(inArray(systems.id, ids));
      return rows.map((r) => r.id);
    },

    async passwordHash(userId: number): Promise<string | undefined> {
      const [owner] = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId));
      return owner?.passwordHash;
    },

    /** The user a service token would act as. */
    async tokenUser(userId: number) {
      const [user] = await db
        .select({ id: users.id, role: users.role, isActive: users.isActive })
        .from(users)
        .where(eq(users.id, userId));
      return user;
    },

    /**
     * Revokes every open refresh token and personal API token of a user, in the caller's
     * transaction; the refresh-token families and the token ids it ended.
     */
    async revokeUserCredentials(userId: number, now: Date) {
      const families = await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
        .returning({ familyId: refreshTokens.familyId });
      const tokens = await db
        .update(serviceTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(serviceTokens.userId, userId),
            eq(serviceTokens.kind, 'personal'),
            isNull(serviceTokens.revokedAt),
          ),
        )
        .returning({ id: serviceTokens.id });
      return { families, tokens };
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
