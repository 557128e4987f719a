import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attachments, documentAttachments, documents } from '../../db/schema/index.ts';

/** What the file viewer needs of a stored file. */
export interface FileRecord {
  filename: string;
  contentType: string;
  size: number;
  storageKey: string;
  sha256: string;
}

export function createFilesRepository(db: Db) {
  return {
    async incidentAttachment(incidentId: string, attachmentId: string): Promise<FileRecord | undefined> {
      const [row] = await db
        .select({
          filename: attachments.filename,
          contentType: attachments.contentType,
          size: attachments.size,
          storageKey: attachments.storageKey,
          sha256: attachments.sha256,
        })
        .from(attachments)
        .where(and(eq(attachments.id, attachmentId), eq(attachments.incidentId, incidentId)))
        .limit(1);
      return row ? { ...row, size: Number(row.size) } : undefined;
    },

    async documentAttachment(
      kind: (typeof documents.$inferSelect)['kind'],
      documentId: number,
      attachmentId: number,
    ): Promise<FileRecord | undefined> {
      const [row] = await db
        .select({
          filename: documentAttachments.filename,
          contentType: documentAttachments.contentType,
          size: documentAttachments.size,
          storageKey: documentAttachments.storageKey,
          sha256: documentAttachments.sha256,
        })
        .from(documentAttachments)
        .innerJoin(documents, eq(documents.id, documentAttachments.documentId))
        .where(
          and(
            eq(documentAttachments.id, attachmentId),
            eq(documentAttachments.documentId, documentId),
            eq(documents.kind, kind),
          ),
        )
        .limit(1);
      return row;
    },
  };
}
