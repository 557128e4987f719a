import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contacts, incidents, systems } from '../../db/schema/index.ts';

/** The SQL of incident notifications: what a message says and who receives it. */
export function createIncidentNotifierRepository(db: Db) {
  return {
    async incident(incidentId: string) {
      const [incident] = await db
        .select({
          key: incidents.key,
          summary: incidents.summary,
          description: incidents.description,
          priority: incidents.priority,
          status: incidents.status,
          systemId: incidents.systemId,
          systemName: systems.fullName,
          isId: systems.isId,
        })
        .from(incidents)
        .innerJoin(systems, eq(systems.id, incidents.systemId))
        .where(eq(incidents.id, incidentId));
      return incident;
    },

    /** The contacts of a system that receive notifications. */
    async recipients(systemId: number) {
      const rows = await db
        .select({ email: contacts.email, locale: contacts.locale })
        .from(contacts)
        .where(and(eq(contacts.systemId, systemId), eq(contacts.notify, true), ne(contacts.email, '')));
      return rows;
    },
  };
}
