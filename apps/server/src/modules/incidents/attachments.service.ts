import type { FastifyReply } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import type { Attachment } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { attachments } from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { notFound } from '../../lib/http-errors.ts';
import { isUuid, presentStoredFile, sendStoredFile } from '../../lib/http-files.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { loadIncident } from './incident-access.ts';

type AttachmentRow = typeof attachments.$inferSelect;

export const attachmentLink = (incidentKey: number, id: string) =>
  `/api/v0/soc/incs/${incidentKey}/attachments/${id}/download/`;

export const presentAttachment = (
  incidentKey: number,
  r: Pick<AttachmentRow, 'id' | 'filename' | 'size' | 'contentType' | 'created'>,
): Attachment => presentStoredFile(r, attachmentLink(incidentKey, r.id));

/** Attachments of comments, grouped by comment id. */
export async function commentAttachments(
  db: Db,
  commentIds: number[],
): Promise<Map<number, AttachmentRow[]>> {
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
}

/** Streams an attachment of an incident the caller may see (see sendStoredFile). */
export async function sendAttachment(
  db: Db,
  storage: FileStorage,
  key: number,
  attachmentId: string,
  auth: AuthContext,
  rangeHeader: string | undefined,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const incident = await loadIncident(db, key, auth);
  if (!isUuid(attachmentId)) throw notFound();
  const [file] = await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, attachmentId), eq(attachments.incidentId, incident.id)))
    .limit(1);
  if (!file) throw notFound();
  return sendStoredFile(storage, file, rangeHeader, reply);
}
