import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contacts, systems, webhookEndpoints } from '../../db/schema/index.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export interface EndpointWithSystem {
  endpoint: EndpointRow;
  system: { id: number; isId: string; fullName: string };
}

/** An endpoint with the system it belongs to, as the pages and the delivery attempts read it. */
export const endpointColumns = {
  endpoint: webhookEndpoints,
  system: { id: systems.id, isId: systems.isId, fullName: systems.fullName },
};

/** The webhook endpoints of the systems, and the contacts told when one is turned off. */
export function createWebhookEndpointsRepository(db: Db) {
  return {
    async list(
      scope: SystemScope,
      systemId: number | undefined,
      page: number,
      pageSize: number,
    ): Promise<{ total: number; rows: EndpointWithSystem[] }> {
      const where = and(
        inScope(webhookEndpoints.systemId, scope),
        systemId === undefined ? undefined : eq(webhookEndpoints.systemId, systemId),
      );
      const [{ total } = { total: 0 }] = await db
        .select({ total: count() })
        .from(webhookEndpoints)
        .where(where);
      const rows = await db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .innerJoin(systems, eq(systems.id, webhookEndpoints.systemId))
        .where(where)
        .orderBy(webhookEndpoints.systemId, webhookEndpoints.id)
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total, rows };
    },

    /** One endpoint within `scope` (undefined for another tenant's: the caller answers 404). */
    async byId(id: number, scope: SystemScope): Promise<EndpointWithSystem | undefined> {
      const [row] = await db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .innerJoin(systems, eq(systems.id, webhookEndpoints.systemId))
        .where(and(eq(webhookEndpoints.id, id), inScope(webhookEndpoints.systemId, scope)));
      return row;
    },

    async systemInScope(systemId: number, scope: SystemScope): Promise<boolean> {
      const [row] = await db
        .select({ id: systems.id })
        .from(systems)
        .where(and(eq(systems.id, systemId), inScope(systems.id, scope)));
      return Boolean(row);
    },

    async countOfSystem(systemId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.systemId, systemId));
      return row?.n ?? 0;
    },

    async insert(values: typeof webhookEndpoints.$inferInsert): Promise<number> {
      const [row] = await db.insert(webhookEndpoints).values(values).returning({ id: webhookEndpoints.id });
      return row!.id;
    },

    async update(id: number, values: Partial<typeof webhookEndpoints.$inferInsert>): Promise<void> {
      await db
        .update(webhookEndpoints)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(webhookEndpoints.id, id));
    },

    async remove(id: number): Promise<void> {
      await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    },

    /** The system's contacts with an e-mail address. */
    async contactsOf(systemId: number) {
      return db
        .select({ email: contacts.email, locale: contacts.locale })
        .from(contacts)
        .where(and(eq(contacts.systemId, systemId), sql`${contacts.email} <> ''`));
    },
  };
}

export type WebhookEndpointsRepository = ReturnType<typeof createWebhookEndpointsRepository>;
