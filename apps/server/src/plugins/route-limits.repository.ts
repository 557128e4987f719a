import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { incidents, tasks, webhookEndpoints } from '../db/schema/index.ts';

/** What the per-system rate limits read of the database. */
export function createRouteLimitsRepository(db: Db) {
  return {
    /**
     * The system of the incident with this key, or of the task or webhook endpoint with this id;
     * undefined when none.
     */
    async systemOfObject(kind: 'incident' | 'task' | 'webhook', id: number): Promise<number | undefined> {
      const [row] =
        kind === 'incident'
          ? await db
              .select({ systemId: incidents.systemId })
              .from(incidents)
              .where(eq(incidents.key, id))
              .limit(1)
          : kind === 'task'
            ? await db.select({ systemId: tasks.systemId }).from(tasks).where(eq(tasks.id, id)).limit(1)
            : await db
                .select({ systemId: webhookEndpoints.systemId })
                .from(webhookEndpoints)
                .where(eq(webhookEndpoints.id, id))
                .limit(1);
      return row?.systemId;
    },
  };
}
