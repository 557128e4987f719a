import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attachments } from '../../db/schema/index.ts';

/** The incidents' files as the download reads them. */
export function createAttachmentsRepository(db: Db) {
  return {
    /** An attachment of this incident (of the incident itself or of one of its comments). */
    async findAttachment(incidentId: string, attachmentId: string) {
      const [file] = await db
        .select()
        .from(attachments)
        .where(and(eq(attachments.id, attachmentId), eq(attachments.incidentId, incidentId)))
        .limit(1);
      return file;
    },
  };
}
