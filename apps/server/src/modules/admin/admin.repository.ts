import { and, asc, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  contacts,
  contracts,
  mfaChallenges,
  portalSettings,
  refreshTokens,
  services,
  slaRows,
  systems,
  userSystems,
  users,
} from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';

export type SystemRow = typeof systems.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** SQL of the administration (drizzle only; rules live in systems.service.ts and users.service.ts). */
export function createAdminRepository(db: Db) {
  return {
    async listSystems(search: string | undefined, limit: number, offset: number) {
      const where = search
        ? or(ilike(systems.isId, likePattern(search)), ilike(systems.fullName, likePattern(search)))
        : undefined;
      const [totalRow] = await db.select({ total: count() }).from(systems).where(where);
      const rows = await db
        .select()
        .from(systems)
        .where(where)
        .orderBy(asc(systems.isId))
        .limit(limit)
        .offset(offset);
      return { total: totalRow?.total ?? 0, rows };
    },

    async systemById(id: number): Promise<SystemRow | undefined> {
      const [row] = await db.select().from(systems).where(eq(systems.id, id));
      return row;
    },

    async systemByIsId(isId: string): Promise<SystemRow | undefined> {
      const [row] = await db
        .select()
        .from(systems)
        .where(sql`lower(${systems.isId}) = lower(${isId})`);
      return row;
    },

    async systemIdsExisting(ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      return (await db.select({ id: systems.id }).from(systems).where(inArray(systems.id, ids))).map(
        (r) => r.id,
      );
    },

    async staffIdsExisting(ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, ids), inArray(users.role, ['analyst', 'admin'])));
      return rows.map((r) => r.id);
    },

    insertSystem: async (values: typeof systems.$inferInsert) =>
      (await db.insert(systems).values(values).returning())[0]!,
    updateSystem: async (id: number, values: Partial<typeof systems.$inferInsert>) => {
      if (Object.keys(values).length) await db.update(systems).set(values).where(eq(systems.id, id));
    },

    systemContracts: (systemId: number) =>
      db.select().from(contracts).where(eq(contracts.systemId, systemId)).orderBy(asc(contracts.id)),
    systemServices: (systemId: number) =>
      db.select().from(services).where(eq(services.systemId, systemId)).orderBy(asc(services.id)),
    slaOf: async (serviceIds: number[]) =>
      serviceIds.length
        ? db.select().from(slaRows).where(inArray(slaRows.serviceId, serviceIds)).orderBy(asc(slaRows.id))
        : [],
    systemContacts: (systemId: number) =>
      db.select().from(contacts).where(eq(contacts.systemId, systemId)).orderBy(asc(contacts.id)),

    async contract(id: number) {
      const [row] = await db.select().from(contracts).where(eq(contracts.id, id));
      return row;
    },
    insertContract: async (values: typeof contracts.$inferInsert) =>
      (await db.insert(contracts).values(values).returning())[0]!,
    updateContract: async (id: number, values: Partial<typeof contracts.$inferInsert>) => {
      if (Object.keys(values).length) await db.update(contracts).set(values).where(eq(contracts.id, id));
    },
    deleteContract: async (id: number) => db.delete(contracts).where(eq(contracts.id, id)),

    async service(id: number) {
      const [row] = await db.select().from(services).where(eq(services.id, id));
      return row;
    },
    /** Writes a service and, when given, replaces its SLA rows, in one transaction. */
    async saveService(
      id: number | null,
      values: Partial<typeof services.$inferInsert>,
      sla:
        { category: 'critical' | 'high' | 'medium' | 'low'; hours: number; calendar: boolean }[] | undefined,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        let serviceId = id;
        if (serviceId === null) {
          serviceId = (
            await tx
              .insert(services)
              .values(values as typeof services.$inferInsert)
              .returning()
          )[0]!.id;
        } else if (Object.keys(values).length) {
          await tx.update(services).set(values).where(eq(services.id, serviceId));
        }
        if (sla) {
          await tx.delete(slaRows).where(eq(slaRows.serviceId, serviceId));
          if (sla.length) await tx.insert(slaRows).values(sla.map((r) => ({ ...r, serviceId: serviceId })));
        }
        return serviceId;
      });
    },
    deleteService: async (id: number) => db.delete(services).where(eq(services.id, id)),

    async contact(id: number) {
      const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
      return row;
    },
    insertContact: async (values: typeof contacts.$inferInsert) =>
      (await db.insert(contacts).values(values).returning())[0]!,
    updateContact: async (id: number, values: Partial<typeof contacts.$inferInsert>) => {
      if (Object.keys(values).length) await db.update(contacts).set(values).where(eq(contacts.id, id));
    },
    deleteContact: async (id: number) => db.delete(contacts).where(eq(contacts.id, id)),

    async listUsers(
      q: { search?: string; role?: UserRow['role']; is_active?: boolean; system?: number },
      limit: number,
      offset: number,
    ) {
      const conditions: (SQL | undefined)[] = [];
      if (q.search) {
        const p = likePattern(q.search);
        conditions.push(
          or(
            ilike(users.username, p),
            ilike(users.email, p),
            ilike(users.firstName, p),
            ilike(users.lastName, p),
          ),
        );
      }
      if (q.role) conditions.push(eq(users.role, q.role));
      if (q.is_active !== undefined) conditions.push(eq(users.isActive, q.is_active));
      if (q.system)
        conditions.push(
          sql`EXISTS (SELECT 1 FROM ${userSystems} us WHERE us.user_id = ${users.id} AND us.system_id = ${q.system})`,
        );
      const where = and(...conditions.filter(Boolean));
      const [totalRow] = await db.select({ total: count() }).from(users).where(where);
      const rows = await db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.username))
        .limit(limit)
        .offset(offset);
      return { total: totalRow?.total ?? 0, rows };
    },

    async userById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async userByUsername(username: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`);
      return row;
    },

    async systemsOf(userIds: number[]): Promise<Map<number, number[]>> {
      const map = new Map<number, number[]>();
      if (!userIds.length) return map;
      const rows = await db
        .select()
        .from(userSystems)
        .where(inArray(userSystems.userId, userIds))
        .orderBy(asc(userSystems.systemId));
      for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), r.systemId]);
      return map;
    },

    /** Creates or updates a user and, when given, replaces their systems, in one transaction. */
    async saveUser(
      id: number | null,
      values: Partial<typeof users.$inferInsert>,
      systemIds: number[] | undefined,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        let userId = id;
        if (userId === null) {
          userId = (
            await tx
              .insert(users)
              .values(values as typeof users.$inferInsert)
              .returning()
          )[0]!.id;
        } else if (Object.keys(values).length) {
          await tx
            .update(users)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(users.id, userId));
        }
        if (systemIds) {
          await tx.delete(userSystems).where(eq(userSystems.userId, userId));
          if (systemIds.length)
            await tx.insert(userSystems).values(systemIds.map((systemId) => ({ userId: userId, systemId })));
        }
        return userId;
      });
    },

    /** Ends every session of a user and every sign-in waiting for its second factor. */
    async endSessions(userId: number): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
      await this.closeSignIns(userId);
    },
    /** Ends the user's pending second-factor sign-ins. */
    async closeSignIns(userId: number): Promise<void> {
      await db
        .update(mfaChallenges)
        .set({ closedAt: new Date() })
        .where(and(eq(mfaChallenges.userId, userId), isNull(mfaChallenges.closedAt)));
    },

    async setting(key: string): Promise<Record<string, unknown> | undefined> {
      const [row] = await db
        .select({ value: portalSettings.value })
        .from(portalSettings)
        .where(eq(portalSettings.key, key));
      return row?.value;
    },
    async putSetting(key: string, value: Record<string, unknown>, userId: number | null): Promise<void> {
      await db
        .insert(portalSettings)
        .values({ key, value, updatedBy: userId })
        .onConflictDoUpdate({
          target: portalSettings.key,
          set: { value, updatedBy: userId, updatedAt: new Date() },
        });
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
