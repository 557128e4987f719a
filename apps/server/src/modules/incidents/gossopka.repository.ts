import { eq, sql } from 'drizzle-orm';
import { GOSSOPKA_PROCESSING_MS } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { categories, incidents, issueTypes, systems } from '../../db/schema/index.ts';

/** The SQL of sending incidents to the national centre: the incident's send state columns. */
export function createGossopkaRepository(db: Db) {
  return {
    async issueTypeCode(issueTypeId: number): Promise<string | undefined> {
      const [t] = await db
        .select({ code: issueTypes.code })
        .from(issueTypes)
        .where(eq(issueTypes.id, issueTypeId));
      return t?.code;
    },

    /** Marks a send as started unless one runs (younger than the processing window) or it was sent. */
    async start(incidentId: string, now: Date): Promise<boolean> {
      // the condition makes two simultaneous requests start one send
      const started = await db
        .update(incidents)
        .set({ gossopkaProcessingSince: now, gossopkaError: null })
        .where(
          sql`${incidents.id} = ${incidentId} AND ${incidents.gossopkaId} IS NULL AND (${incidents.gossopkaProcessingSince} IS NULL OR ${incidents.gossopkaProcessingSince} < ${new Date(now.getTime() - GOSSOPKA_PROCESSING_MS).toISOString()}::timestamptz)`,
        )
        .returning();
      return started.length > 0;
    },

    /** The incident with what the centre is sent of its system and category. */
    async toSend(incidentId: string) {
      const [row] = await db
        .select({
          incident: incidents,
          isId: systems.isId,
          systemName: systems.fullName,
          category: categories.titleEn,
        })
        .from(incidents)
        .innerJoin(systems, eq(systems.id, incidents.systemId))
        .leftJoin(categories, eq(categories.id, incidents.categoryId))
        .where(eq(incidents.id, incidentId));
      return row;
    },

    async markProcessing(incidentId: string): Promise<void> {
      await db
        .update(incidents)
        .set({ gossopkaProcessingSince: new Date(), gossopkaError: null })
        .where(eq(incidents.id, incidentId));
    },

    async markSent(incidentId: string, gossopkaId: string): Promise<void> {
      await db
        .update(incidents)
        .set({
          gossopkaId,
          gossopkaSendTime: new Date(),
          gossopkaProcessingSince: null,
          gossopkaError: null,
          gossopkaPlannedTime: null,
          updated: new Date(),
        })
        .where(eq(incidents.id, incidentId));
    },

    async markFailed(incidentId: string, message: string): Promise<void> {
      await db
        .update(incidents)
        .set({ gossopkaError: message, gossopkaProcessingSince: null })
        .where(eq(incidents.id, incidentId));
    },
  };
}
