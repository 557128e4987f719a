import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { comments, incidents, reports, tasks } from '../../db/schema/index.ts';

/**
 * The objects a webhook message describes, each read as the endpoint's system sees it: another
 * tenant's object is undefined.
 */
export function createWebhookObjectsRepository(db: Db) {
  return {
    /** An incident of `systemId` only (another tenant's is undefined). */
    async incident(key: number, systemId: number) {
      const [row] = await db
        .select({
          key: incidents.key,
          summary: incidents.summary,
          status: incidents.status,
          priority: incidents.priority,
          sla: incidents.sla,
          slaBreached: incidents.slaBreached,
          resolution: incidents.resolution,
          created: incidents.created,
          updated: incidents.updated,
        })
        .from(incidents)
        .where(and(eq(incidents.key, key), eq(incidents.systemId, systemId)));
      return row;
    },

    async comment(id: number, systemId: number) {
      const [row] = await db
        .select({
          id: comments.id,
          author: comments.authorName,
          body: comments.body,
          fromSoc: comments.fromSoc,
          created: comments.created,
          key: incidents.key,
        })
        .from(comments)
        .innerJoin(incidents, eq(incidents.id, comments.incidentId))
        // an internal note of the SOC is never delivered (it writes no event either: design §9)
        .where(and(eq(comments.id, id), eq(incidents.systemId, systemId), eq(comments.internal, false)));
      return row;
    },

    async report(id: number, systemId: number) {
      const [row] = await db
        .select({
          id: reports.id,
          name: reports.name,
          systemIds: reports.systemIds,
          created: reports.created,
        })
        .from(reports)
        .where(eq(reports.id, id));
      return row && row.systemIds.length > 0 && row.systemIds.every((s) => s === systemId) ? row : undefined;
    },

    async task(id: number, systemId: number) {
      const [row] = await db
        .select({
          id: tasks.id,
          subject: tasks.subject,
          type: tasks.type,
          status: tasks.status,
          priority: tasks.priority,
          created: tasks.created,
          updated: tasks.updated,
        })
        .from(tasks)
        .where(and(eq(tasks.id, id), eq(tasks.systemId, systemId)));
      return row;
    },
  };
}

export type WebhookObjectsRepository = ReturnType<typeof createWebhookObjectsRepository>;
