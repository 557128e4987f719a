import { randomUUID } from 'node:crypto';
import type {
  DocumentCard,
  DocumentComment,
  DocumentCommentCreate,
  DocumentCreate,
  DocumentKind,
  DocumentListQuery,
  DocumentUpdate,
  DocumentVariant,
} from '@soc/contracts';
import {
  DOCUMENT_ATTACHMENT_MAX_BYTES,
  DocumentCommentCreateSchema,
  DocumentCreateSchema,
  DocumentUpdateSchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { checkUpload } from '../../integrations/storage/sniff.ts';
import { sanitizeFilename } from '../../integrations/storage/upload-stager.ts';
import { FileTooLargeError } from '../../integrations/storage/file-storage.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { renderTypedMarkdown } from '../../lib/markdown.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { AttachmentRow, CommentViewer, DocumentRow } from './documents.repository.ts';
import { createDocumentsRepository } from './documents.repository.ts';
import { displayName } from '../users/index.ts';
import {
  presentAttachment,
  presentCard,
  presentComment,
  presentListItem,
  presentVersion,
} from './documents.presenter.ts';

const isStaff = (auth: AuthContext) => auth.role === 'analyst' || auth.role === 'admin';
/**
 * Whose comments the caller reads: staff every comment; customers, and a staff API token limited
 * to systems, the SOC's, their own and those of the users of their systems.
 */
const viewerOf = (auth: AuthContext): CommentViewer => {
  const scope = systemScope(auth);
  return { userId: auth.userId, staff: scope === null, systemIds: scope ?? auth.systemIds };
};

/** Zod issues → DRF field errors. */
function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export interface DocumentsDeps {
  db: Db;
  storage: FileStorage;
}

export function createDocumentsService({ db, storage }: DocumentsDeps) {
  const repo = createDocumentsRepository(db);

  const variantMap = async (rows: DocumentRow[]) => {
    const variants = await repo.variants([...new Set(rows.map((r) => r.document))]);
    const map = new Map<string, DocumentVariant[]>();
    for (const v of variants) {
      const list = map.get(v.document) ?? [];
      list.push({ language: v.language, id: v.id });
      map.set(v.document, list);
    }
    return map;
  };
  const attachmentMap = async (rows: DocumentRow[]) => {
    const map = new Map<number, AttachmentRow[]>();
    for (const a of await repo.attachments(rows.map((r) => r.id))) {
      const list = map.get(a.documentId) ?? [];
      list.push(a);
      map.set(a.documentId, list);
    }
    return map;
  };

  const load = async (kind: DocumentKind, id: number): Promise<DocumentRow> => {
    const row = await repo.byId(kind, id);
    if (!row) throw notFound();
    return row;
  };

  const card = async (row: DocumentRow, auth: AuthContext): Promise<DocumentCard> => {
    const [variants, attachments, versionsCount] = await Promise.all([
      variantMap([row]),
      repo.attachments([row.id]),
      repo.versionsCount(row.id),
    ]);
    return presentCard(row, attachments, variants.get(row.document) ?? [], isStaff(auth), versionsCount);
  };

  return {
    async list(kind: DocumentKind, q: DocumentListQuery, noPageMax: number) {
      if (q.sensors__in && kind !== 'instruction') {
        throw badRequest({ sensors__in: [msg('onlyInstructionsHaveSensors')] });
      }
      const limit = q.no_page ? noPageMax : q.page_size;
      const offset = q.no_page ? 0 : (q.page - 1) * q.page_size;
      const { rows, total } = await repo.list(kind, q, limit, offset);
      const [variants, attachments] = await Promise.all([variantMap(rows), attachmentMap(rows)]);
      return {
        total,
        results: rows.map((r) =>
          presentListItem(r, attachments.get(r.id) ?? [], variants.get(r.document) ?? []),
        ),
      };
    },

    languages: (kind: DocumentKind) => repo.languages(kind),
    tags: (kind: DocumentKind) => repo.distinctValues(kind, 'tags'),
    sensors: () => repo.distinctValues('instruction', 'sensors'),

    async card(kind: DocumentKind, id: number, auth: AuthContext) {
      return card(await load(kind, id), auth);
    },

    /** The document as loaded for a PDF or an attachment, with its attachments. */
    async loadWithAttachments(kind: DocumentKind, id: number) {
      const row = await load(kind, id);
      return { row, attachments: await repo.attachments([row.id]) };
    },

    async create(kind: DocumentKind, input: DocumentCreate, auth: AuthContext, ip: string) {
      if (!isStaff(auth)) throw forbidden();
      const body = DocumentCreateSchema.parse(input);
      if (kind !== 'instruction' && body.sensors.length) {
        throw badRequest({ sensors: [msg('onlyInstructionsHaveSensors')] });
      }
      if (body.document) {
        const existing = await repo.variantsOf(body.document);
        if (!existing.length || existing.some((v) => v.kind !== kind)) {
          throw badRequest({ document: [msg('noDocumentOfKind')] });
        }
        if (existing.some((v) => v.language === body.language)) {
          throw badRequest({ language: [msg('documentLanguageExists')] });
        }
      }
      const me = await displayName(db, auth.userId);
      const row = await db.transaction(async (tx) => {
        const writes = createDocumentsRepository(tx);
        const created = await writes.insertDocument({
          kind,
          document: body.document ?? randomUUID(),
          language: body.language,
          title: body.title,
          description: body.description,
          tags: body.tags,
          sensors: kind === 'instruction' ? body.sensors : [],
          authorId: auth.userId,
          authorName: me.name,
        });
        await writes.insertVersion({
          documentId: created.id,
          comment: body.comment,
          title: created.title,
          description: created.description,
          authorId: auth.userId,
          authorName: me.name,
          created: created.created,
        });
        return created;
      });
      await audit(db, {
        userId: auth.userId,
        action: 'document.create',
        objectType: 'document',
        objectId: row.id,
        ip,
        details: { kind, language: row.language, document: row.document },
      });
      return card(row, auth);
    },

    async update(kind: DocumentKind, id: number, input: DocumentUpdate, auth: AuthContext, ip: string) {
      if (!isStaff(auth)) throw forbidden();
      const body = DocumentUpdateSchema.parse(input);
      const current = await load(kind, id);
      if (
        body.title === undefined &&
        body.description === undefined &&
        body.tags === undefined &&
        body.sensors === undefined
      ) {
        throw badRequest({ non_field_errors: [msg('documentNothingChanged')] });
      }
      if (kind !== 'instruction' && body.sensors?.length) {
        throw badRequest({ sensors: [msg('onlyInstructionsHaveSensors')] });
      }
      const me = await displayName(db, auth.userId);
      const now = new Date();
      const row = await db.transaction(async (tx) => {
        const writes = createDocumentsRepository(tx);
        const updated = await writes.updateDocument(current.id, {
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.tags !== undefined ? { tags: body.tags } : {}),
          ...(body.sensors !== undefined && kind === 'instruction' ? { sensors: body.sensors } : {}),
          updated: now,
        });
        await writes.insertVersion({
          documentId: current.id,
          comment: body.comment,
          title: updated.title,
          description: updated.description,
          authorId: auth.userId,
          authorName: me.name,
          created: now,
        });
        return updated;
      });
      await audit(db, {
        userId: auth.userId,
        action: 'document.update',
        objectType: 'document',
        objectId: row.id,
        ip,
        details: { kind, fields: Object.keys(input).filter((k) => k !== 'comment') },
      });
      return card(row, auth);
    },

    async history(kind: DocumentKind, id: number, page: number, pageSize: number) {
      const row = await load(kind, id);
      const { rows, total } = await repo.versions(row.id, pageSize, (page - 1) * pageSize);
      return { total, results: rows.map(presentVersion) };
    },

    async comments(kind: DocumentKind, id: number, auth: AuthContext, page: number, pageSize: number) {
      const row = await load(kind, id);
      const { rows, total } = await repo.comments(row.id, viewerOf(auth), pageSize, (page - 1) * pageSize);
      return { total, results: rows.map((c) => presentComment(c, auth.userId)) };
    },

    /** POST comments/: multipart with the single form field `text`. */
    async addComment(
      kind: DocumentKind,
      id: number,
      parts: AsyncIterable<MultipartPart>,
      auth: AuthContext,
      ip: string,
    ): Promise<DocumentComment> {
      const row = await load(kind, id);
      const fields: Record<string, unknown> = {};
      for await (const part of parts) {
        if ('file' in part) {
          part.file.resume();
          throw badRequest({ [part.fieldname]: [msg('filesNotAccepted')] });
        }
        fields[part.fieldname] = part.value;
      }
      const parsed = DocumentCommentCreateSchema.safeParse(fields);
      if (!parsed.success) throw badRequest(fieldErrors(parsed.error.issues));
      const text: DocumentCommentCreate['text'] = parsed.data.text;
      const me = await displayName(db, auth.userId);
      const comment = await repo.insertComment({
        documentId: row.id,
        authorId: auth.userId,
        authorName: me.name,
        body: renderTypedMarkdown(text),
        fromSoc: isStaff(auth),
      });
      await audit(db, {
        userId: auth.userId,
        action: 'document.comment',
        objectType: 'document',
        objectId: row.id,
        ip,
        details: { comment: comment.id },
      });
      return presentComment(comment, auth.userId);
    },

    /** POST attachments/: multipart with one file in the field `file` (staff only). */
    async addAttachment(
      kind: DocumentKind,
      id: number,
      parts: AsyncIterable<MultipartPart>,
      auth: AuthContext,
      ip: string,
    ) {
      if (!isStaff(auth)) throw forbidden();
      const row = await load(kind, id);
      let stored: {
        key: string;
        size: number;
        sha256: string;
        filename: string;
        contentType: string;
      } | null = null;
      try {
        for await (const part of parts) {
          if (!('file' in part)) continue;
          if (part.fieldname !== 'file' || stored) {
            part.file.resume();
            throw badRequest({ file: [msg('exactlyOneFile')] });
          }
          const filename = sanitizeFilename(part.filename);
          let contentType = 'application/octet-stream';
          const object = await storage.put('documents', part.file, DOCUMENT_ATTACHMENT_MAX_BYTES, (head) => {
            contentType = checkUpload('file', filename, head);
          });
          stored = { ...object, filename, contentType };
          if (object.size === 0) throw badRequest({ file: [msg('emptyFile', filename)] });
        }
      } catch (err) {
        if (stored) await storage.remove(stored.key);
        if (err instanceof FileTooLargeError) {
          throw new HttpError(413, msg('documentFileTooLarge', DOCUMENT_ATTACHMENT_MAX_BYTES / 1024 / 1024));
        }
        throw err;
      }
      if (!stored) throw badRequest({ file: [msg('noFile')] });
      const attachment = await repo.insertAttachment({
        documentId: row.id,
        filename: stored.filename,
        contentType: stored.contentType,
        size: stored.size,
        storageKey: stored.key,
        sha256: stored.sha256,
        uploadedBy: auth.userId,
      });
      await audit(db, {
        userId: auth.userId,
        action: 'document.attachment',
        objectType: 'document',
        objectId: row.id,
        ip,
        details: { attachment: attachment.id, filename: stored.filename },
      });
      return presentAttachment(kind, attachment);
    },

    async attachment(kind: DocumentKind, id: number, attachmentId: number) {
      const row = await load(kind, id);
      const file = await repo.attachment(row.id, attachmentId);
      if (!file) throw notFound();
      return file;
    },
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
