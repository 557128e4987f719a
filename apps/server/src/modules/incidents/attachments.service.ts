import type { FastifyReply } from 'fastify';
import type { Attachment } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { attachments } from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { notFound } from '../../lib/http-errors.ts';
import { isUuid, presentStoredFile, sendStoredFile } from '../../integrations/storage/http-files.ts';
import type { AuthContext } from '../../core/auth.ts';
import { createAttachmentsRepository } from './attachments.repository.ts';
import { loadIncident } from './incident-access.ts';

type AttachmentRow = typeof attachments.$inferSelect;

export const attachmentLink = (incidentKey: number, id: string) =>
  `/api/v0/soc/incs/${incidentKey}/attachments/${id}/download/`;

export const presentAttachment = (
  incidentKey: number,
  r: Pick<AttachmentRow, 'id' | 'filename' | 'size' | 'contentType' | 'created'>,
): Attachment => presentStoredFile(r, attachmentLink(incidentKey, r.id));

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
  const file = await createAttachmentsRepository(db).findAttachment(incident.id, attachmentId);
  if (!file) throw notFound();
  return sendStoredFile(storage, file, rangeHeader, reply);
}
