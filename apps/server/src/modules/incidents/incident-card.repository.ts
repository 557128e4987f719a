import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { incidents, resolutions, userSystems, users } from '../../db/schema/index.ts';

type IncidentChanges = Partial<typeof incidents.$inferInsert>;

/**
 * The SQL of the incident card's actions beside the card statement itself; an action's
 * transaction passes itself as `db`.
 */
export function createIncidentCardRepository(db: Db) {
  return {
    /** The whole incident row, locked for the action's transaction. */
    async lockIncidentRecord(incidentId: string) {
      const [locked] = await db.select().from(incidents).where(eq(incidents.id, incidentId)).for('update');
      return locked;
    },

    /** Writes changed columns of an incident. */
    async updateIncident(incidentId: string, changes: IncidentChanges): Promise<void> {
      await db.update(incidents).set(changes).where(eq(incidents.id, incidentId));
    },

    /** Whether the user is an active member of the system. */
    async isActiveMember(userId: number, systemId: number): Promise<boolean> {
      const [m] = await db
        .select({ id: users.id })
        .from(users)
        .innerJoin(userSystems, eq(userSystems.userId, users.id))
        .where(and(eq(users.id, userId), eq(users.isActive, true), eq(userSystems.systemId, systemId)))
        .limit(1);
      return Boolean(m);
    },

    /** A resolution of the issue type, by id. */
    async resolution(id: number, issueTypeId: number) {
      const [r] = await db
        .select({ id: resolutions.id, kind: resolutions.kind })
        .from(resolutions)
        .where(and(eq(resolutions.id, id), eq(resolutions.issueTypeId, issueTypeId)));
      return r;
    },

    /** Stores a star rating unless there is one; false when the incident was rated already. */
    async rate(incidentId: string, rating: number, comment: string | null): Promise<boolean> {
      // the condition in the UPDATE makes a second, concurrent rating fail as well
      const updated = await db
        .update(incidents)
        .set({ customerStarRating: rating, customerStarRatingComment: comment, updated: new Date() })
        .where(and(eq(incidents.id, incidentId), sql`${incidents.customerStarRating} IS NULL`))
        .returning({ id: incidents.id });
      return updated.length > 0;
    },
  };
}
