import { and, eq, inArray } from 'drizzle-orm';
import type { IncidentPriority } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import {
  attachments,
  categories,
  incidents,
  issueTypes,
  services,
  slaRows,
  systems,
  userSystems,
  users,
} from '../../db/schema/index.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

export type NewIncident = typeof incidents.$inferInsert;
export type NewAttachment = typeof attachments.$inferInsert;

/**
 * The incidents module's queries outside the list and count (incidents.repository.ts): what
 * registration, file uploads and the CSV job read and write. Writers pass their transaction.
 */
export function createIncidentWritesRepository(db: Db) {
  return {
    /** The id of a system the scope holds, else undefined. */
    async systemInScope(id: number, scope: SystemScope): Promise<number | undefined> {
      const [row] = await db
        .select({ id: systems.id })
        .from(systems)
        .where(and(eq(systems.id, id), inScope(systems.id, scope)));
      return row?.id;
    },

    async issueTypeExists(id: number): Promise<boolean> {
      const [row] = await db.select({ id: issueTypes.id }).from(issueTypes).where(eq(issueTypes.id, id));
      return row !== undefined;
    },

    /** Those of the categories that belong to the issue type. */
    async categoriesOfType(typeId: number, ids: number[]): Promise<Set<number>> {
      const found = await db
        .select({ id: categories.id })
        .from(categories)
        .where(and(inArray(categories.id, ids), eq(categories.issueTypeId, typeId)));
      return new Set(found.map((c) => c.id));
    },

    /**
     * A service of the system with the SLA hours of a priority: the named one, else the system's
     * first; undefined when there is none (or the named one is another system's).
     */
    async serviceWithSla(systemId: number, priority: IncidentPriority, serviceId?: number) {
      const [row] = await db
        .select({ id: services.id, hours: slaRows.hours, calendar: slaRows.calendar })
        .from(services)
        .leftJoin(slaRows, and(eq(slaRows.serviceId, services.id), eq(slaRows.category, priority)))
        .where(and(eq(services.systemId, systemId), serviceId ? eq(services.id, serviceId) : undefined))
        .orderBy(services.id)
        .limit(1);
      return row;
    },

    async insertIncident(values: NewIncident) {
      const [row] = await db
        .insert(incidents)
        .values(values)
        .returning({ id: incidents.id, key: incidents.key, systemId: incidents.systemId });
      return row!;
    },

    /** Marks the incident as changed now (the list's "updated"). */
    async touchIncident(incidentId: string): Promise<void> {
      await db.update(incidents).set({ updated: new Date() }).where(eq(incidents.id, incidentId));
    },

    /** The incident with this key within the scope, else undefined. */
    async incidentInScope(key: number, scope: SystemScope) {
      const [row] = await db
        .select({ id: incidents.id, systemId: incidents.systemId })
        .from(incidents)
        .where(and(eq(incidents.key, key), inScope(incidents.systemId, scope)))
        .limit(1);
      return row;
    },

    insertAttachments(values: NewAttachment[]) {
      return db.insert(attachments).values(values).returning();
    },

    async userEmail(userId: number): Promise<string | undefined> {
      const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      return me?.email;
    },

    /** The user a CSV job runs for, with the systems of their memberships. */
    async userWithSystems(userId: number) {
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user) return undefined;
      const memberships = await db
        .select({ systemId: userSystems.systemId })
        .from(userSystems)
        .where(eq(userSystems.userId, userId));
      return { user, systemIds: memberships.map((r) => r.systemId) };
    },
  };
}
