import { and, asc, count, eq, ilike, inArray, or } from 'drizzle-orm';
import type { IncidentStatus } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { attachments, comments, incidents, systems } from '../../db/schema/index.ts';
import type { StagedFile } from '../../integrations/storage/upload-stager.ts';

export type CommentRow = typeof comments.$inferSelect;
export type NewCommentRow = typeof comments.$inferInsert;
export type AttachmentRow = typeof attachments.$inferSelect;

/** The SQL of an incident's chat; writers pass their transaction as `db`. */
export function createCommentsRepository(db: Db) {
  return {
    async insert(values: NewCommentRow): Promise<CommentRow> {
      const [row] = await db.insert(comments).values(values).returning();
      return row!;
    },

    /** The name under which the SOC replies on the incident's system, or null (as the analyst). */
    async socReplyName(incidentId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: systems.socReplyName })
        .from(incidents)
        .innerJoin(systems, eq(systems.id, incidents.systemId))
        .where(eq(incidents.id, incidentId));
      return row?.name ?? null;
    },

    /** Records staged files as attachments of a comment. */
    async insertFiles(
      comment: { incidentId: string; id: number },
      files: StagedFile[],
      uploadedBy: number | null,
    ): Promise<void> {
      await db.insert(attachments).values(
        files.map((f) => ({
          incidentId: comment.incidentId,
          commentId: comment.id,
          filename: f.filename,
          contentType: f.contentType,
          size: f.size,
          storageKey: f.key,
          sha256: f.sha256,
          uploadedBy,
        })),
      );
    },

    /** Marks the incident updated by a comment at `now`, moving its status when `next` is given. */
    async touchIncident(incidentId: string, next: IncidentStatus | null, now: Date): Promise<void> {
      await db
        .update(incidents)
        .set({
          updated: now,
          ...(next ? { status: next } : {}),
          ...(next === 'customer_completed' ? { resolutionDate: now } : {}),
        })
        .where(eq(incidents.id, incidentId));
    },

    /**
     * A page of an incident's chat, oldest first, searched in the body and the author's name:
     * the comments, or with `internal` the SOC's internal notes, never both (design §9).
     */
    async page(
      incidentId: string,
      q: { pattern?: string; limit: number; offset: number; internal?: boolean },
    ): Promise<{ total: number; rows: CommentRow[] }> {
      const conditions = [eq(comments.incidentId, incidentId), eq(comments.internal, q.internal ?? false)];
      if (q.pattern) {
        conditions.push(or(ilike(comments.body, q.pattern), ilike(comments.authorName, q.pattern))!);
      }
      const where = and(...conditions);
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(comments).where(where);
      const rows = await db
        .select()
        .from(comments)
        .where(where)
        .orderBy(asc(comments.created), asc(comments.id))
        .limit(q.limit)
        .offset(q.offset);
      return { total, rows };
    },

    /** Attachments of comments, grouped by comment id. */
    async attachmentsOf(commentIds: number[]): Promise<Map<number, AttachmentRow[]>> {
      const out = new Map<number, AttachmentRow[]>();
      if (!commentIds.length) return out;
      const rows = await db
        .select()
        .from(attachments)
        .where(inArray(attachments.commentId, commentIds))
        .orderBy(attachments.created, attachments.filename);
      for (const r of rows) {
        const list = out.get(r.commentId!) ?? [];
        list.push(r);
        out.set(r.commentId!, list);
      }
      return out;
    },
  };
}
