import type { SQL } from 'drizzle-orm';
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { DocumentKind, DocumentListQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import {
  documentAttachments,
  documentComments,
  documentVersions,
  documents,
  userSystems,
} from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';

export type DocumentRow = typeof documents.$inferSelect;
export type AttachmentRow = typeof documentAttachments.$inferSelect;
export type VersionRow = typeof documentVersions.$inferSelect;
export type CommentRow = typeof documentComments.$inferSelect;

/** Viewer of comments: staff see every comment; customers see staff comments, their own and their tenants'. */
export interface CommentViewer {
  userId: number;
  staff: boolean;
  systemIds: number[];
}

const ORDER: Record<string, SQL[]> = {
  created: [asc(documents.created), asc(documents.id)],
  '-created': [desc(documents.created), desc(documents.id)],
  updated: [asc(documents.updated), asc(documents.id)],
  '-updated': [desc(documents.updated), desc(documents.id)],
  title: [asc(documents.title), asc(documents.id)],
  '-title': [desc(documents.title), desc(documents.id)],
};

export function createDocumentsRepository(db: Db) {
  const listWhere = (kind: DocumentKind, q: DocumentListQuery): SQL | undefined => {
    const where: (SQL | undefined)[] = [eq(documents.kind, kind)];
    if (q.language) where.push(eq(documents.language, q.language));
    if (q.search) {
      where.push(sql`(${documents.title} || ' ' || ${documents.description}) ILIKE ${likePattern(q.search)}`);
    }
    if (q.tags__in) where.push(sql`${documents.tags} && ${sql.param(q.tags__in)}::text[]`);
    if (q.sensors__in) where.push(sql`${documents.sensors} && ${sql.param(q.sensors__in)}::text[]`);
    if (q.created__gte) where.push(gte(documents.created, q.created__gte));
    if (q.created__lte) where.push(lte(documents.created, q.created__lte));
    if (q.updated__gte) where.push(gte(documents.updated, q.updated__gte));
    if (q.updated__lte) where.push(lte(documents.updated, q.updated__lte));
    if (q.document) where.push(eq(documents.document, q.document));
    return and(...where);
  };

  const commentVisible = (viewer: CommentViewer): SQL | undefined => {
    if (viewer.staff) return undefined;
    const shared = viewer.systemIds.length
      ? sql` OR EXISTS (SELECT 1 FROM ${userSystems} WHERE ${userSystems.userId} = ${documentComments.authorId} AND ${inArray(userSystems.systemId, viewer.systemIds)})`
      : sql``;
    return sql`(${documentComments.fromSoc} OR ${documentComments.authorId} = ${viewer.userId}${shared})`;
  };

  return {
    async list(kind: DocumentKind, q: DocumentListQuery, limit: number, offset: number) {
      const where = listWhere(kind, q);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(documents)
          .where(where)
          .orderBy(...ORDER[q.ordering ?? '-updated']!)
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(documents).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async languages(kind: DocumentKind) {
      return db
        .select({ language: documents.language, count: count() })
        .from(documents)
        .where(eq(documents.kind, kind))
        .groupBy(documents.language)
        .orderBy(documents.language);
    },

    async distinctValues(kind: DocumentKind, column: 'tags' | 'sensors'): Promise<string[]> {
      const col = column === 'tags' ? documents.tags : documents.sensors;
      const v = sql<string>`unnest(${col})`;
      const rows = await db
        .selectDistinct({ v })
        .from(documents)
        .where(eq(documents.kind, kind))
        .orderBy(v)
        .limit(1000);
      return rows.map((r) => r.v);
    },

    async byId(kind: DocumentKind, id: number): Promise<DocumentRow | undefined> {
      const [row] = await db
        .select()
        .from(documents)
        .where(and(eq(documents.kind, kind), eq(documents.id, id)));
      return row;
    },

    async variants(documentIds: string[]) {
      if (!documentIds.length) return [];
      return db
        .select({ id: documents.id, document: documents.document, language: documents.language })
        .from(documents)
        .where(inArray(documents.document, documentIds))
        .orderBy(documents.language);
    },

    async variantsOf(document: string) {
      return db
        .select({ id: documents.id, kind: documents.kind, language: documents.language })
        .from(documents)
        .where(eq(documents.document, document));
    },

    async attachments(ids: number[]): Promise<AttachmentRow[]> {
      if (!ids.length) return [];
      return db
        .select()
        .from(documentAttachments)
        .where(inArray(documentAttachments.documentId, ids))
        .orderBy(documentAttachments.documentId, documentAttachments.id);
    },

    async attachment(documentId: number, id: number): Promise<AttachmentRow | undefined> {
      const [row] = await db
        .select()
        .from(documentAttachments)
        .where(and(eq(documentAttachments.documentId, documentId), eq(documentAttachments.id, id)));
      return row;
    },

    async versionsCount(documentId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(documentVersions)
        .where(eq(documentVersions.documentId, documentId));
      return row?.n ?? 0;
    },

    async versions(documentId: number, limit: number, offset: number) {
      const where = eq(documentVersions.documentId, documentId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(documentVersions)
          .where(where)
          .orderBy(desc(documentVersions.created), desc(documentVersions.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(documentVersions).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async comments(documentId: number, viewer: CommentViewer, limit: number, offset: number) {
      const where = and(eq(documentComments.documentId, documentId), commentVisible(viewer));
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(documentComments)
          .where(where)
          .orderBy(asc(documentComments.created), asc(documentComments.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(documentComments).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async insertDocument(values: typeof documents.$inferInsert): Promise<DocumentRow> {
      const [row] = await db.insert(documents).values(values).returning();
      return row!;
    },

    async updateDocument(id: number, set: Partial<typeof documents.$inferInsert>): Promise<DocumentRow> {
      const [row] = await db.update(documents).set(set).where(eq(documents.id, id)).returning();
      return row!;
    },

    /** Records a version of a document (every create and edit keeps one). */
    async insertVersion(values: typeof documentVersions.$inferInsert): Promise<void> {
      await db.insert(documentVersions).values(values);
    },

    async insertComment(values: typeof documentComments.$inferInsert): Promise<CommentRow> {
      const [row] = await db.insert(documentComments).values(values).returning();
      return row!;
    },

    async insertAttachment(values: typeof documentAttachments.$inferInsert): Promise<AttachmentRow> {
      const [row] = await db.insert(documentAttachments).values(values).returning();
      return row!;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
