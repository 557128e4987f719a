import type { FastifyReply } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import type { Attachment } from '@soc/contracts';
import { ATTACHMENTS_MAX_FILES, ATTACHMENT_MAX_BYTES } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { attachments } from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { FileTooLargeError } from '../../integrations/storage/file-storage.ts';
import { HttpError, badRequest, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { loadIncident } from './incident-access.ts';
import type { UploadPart } from './incidents.service.ts';
import { sanitizeFilename } from './incidents.service.ts';
import { checkUpload } from './sniff.ts';

export interface StagedFile {
  key: string;
  size: number;
  sha256: string;
  filename: string;
  contentType: string;
}

type AttachmentRow = typeof attachments.$inferSelect;

export const attachmentLink = (incidentKey: number, id: string) =>
  `/api/v0/soc/incs/${incidentKey}/attachments/${id}/download/`;

export const presentAttachment = (
  incidentKey: number,
  r: Pick<AttachmentRow, 'id' | 'filename' | 'size' | 'contentType' | 'created'>,
): Attachment => presentStoredFile(r, attachmentLink(incidentKey, r.id));

/** A stored file as the API shows it, with its download link. */
export const presentStoredFile = (
  r: Pick<AttachmentRow, 'id' | 'filename' | 'size' | 'contentType' | 'created'>,
  link: string,
): Attachment => ({
  id: r.id,
  filename: r.filename,
  size: r.size,
  content_type: r.contentType,
  link,
  created: r.created.getTime(),
});

/** Whether a path segment can be an attachment id (anything else is a 404 without a query). */
export const isUuid = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/**
 * Stages uploaded files in storage with the limits of add_file (1–10 files, 50 MB each, no
 * executables). The caller records them, or calls `discard` when the request fails.
 */
export class UploadStager {
  readonly files: StagedFile[] = [];
  constructor(private readonly storage: FileStorage) {}

  async stage(filename: string, source: UploadPart['file']): Promise<void> {
    if (this.files.length >= ATTACHMENTS_MAX_FILES) {
      source.resume();
      throw badRequest({
        attachments: [`Ensure this field has no more than ${ATTACHMENTS_MAX_FILES} files.`],
      });
    }
    const name = sanitizeFilename(filename);
    let contentType = 'application/octet-stream';
    try {
      const object = await this.storage.put('attachments', source, ATTACHMENT_MAX_BYTES, (head) => {
        contentType = checkUpload('attachments', name, head);
      });
      this.files.push({ ...object, filename: name, contentType });
      if (object.size === 0) throw badRequest({ attachments: [`The submitted file "${name}" is empty.`] });
    } catch (err) {
      if (err instanceof FileTooLargeError) {
        throw new HttpError(413, `Each file must be at most ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`);
      }
      throw err;
    }
  }

  async discard(): Promise<void> {
    await Promise.all(this.files.map((f) => this.storage.remove(f.key)));
  }
}

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

/** `attachment; filename="ascii"; filename*=UTF-8''percent-encoded` (RFC 6266 / RFC 5987). */
export function contentDisposition(filename: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  // the quoted fallback must be printable ASCII
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A single `bytes=` range of a file of `size` bytes; null: serve the whole file; 'invalid': 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // several ranges or another unit: the whole file is a valid answer (RFC 9110 §14.2)
  if (!m) return header.trim().startsWith('bytes=') && header.includes(',') ? null : 'invalid';
  const [, a, b] = m;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return 'invalid';
  }
  if (start >= size) return 'invalid';
  return { start, end };
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

/** What sendStoredFile needs of a stored file's row (incident, task and other attachments). */
export interface StoredFileRow {
  filename: string;
  contentType: string;
  size: number;
  storageKey: string;
  sha256: string;
}

/**
 * Streams a stored file the caller may see: Content-Type, Content-Length, Content-Disposition,
 * Accept-Ranges and a single byte range (206 with Content-Range, 416 when unsatisfiable).
 */
export async function sendStoredFile(
  storage: FileStorage,
  file: StoredFileRow,
  rangeHeader: string | undefined,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const size = Number(file.size);
  const range = parseRange(rangeHeader, size);
  if (range === 'invalid') {
    return reply
      .status(416)
      .header('content-range', `bytes */${size}`)
      .send({ detail: 'Range not satisfiable.' });
  }
  void reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.filename))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('etag', `"${file.sha256}"`);
  if (!range) {
    return reply.status(200).header('content-length', String(size)).send(storage.open(file.storageKey));
  }
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(storage.openRange(file.storageKey, range.start, range.end));
}
