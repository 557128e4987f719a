import type {} from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DocumentKind } from '@soc/contracts';
import {
  DOCUMENT_KIND_PATHS,
  DOCUMENT_KINDS,
  DetailErrorSchema,
  DocumentAttachmentSchema,
  DocumentCardSchema,
  DocumentChoicesResponseSchema,
  DocumentCommentListResponseSchema,
  DocumentCommentSchema,
  DocumentCommentsQuerySchema,
  DocumentCreateSchema,
  DocumentHistoryQuerySchema,
  DocumentHistoryResponseSchema,
  DocumentLanguagesResponseSchema,
  DocumentListQuerySchema,
  DocumentListResponseSchema,
  DocumentUpdateSchema,
  FieldErrorsSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { contentDisposition } from '../../integrations/storage/http-files.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import { ONE_PAGE, pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { requireUnscoped } from '../../lib/token-scope.ts';
import { documentPdf } from './document-pdf.ts';
import type { DocumentsService } from './documents.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const AttachmentParams = IdParams.extend({
  attachmentId: z.coerce.number().int().positive().max(2_147_483_647),
});
const errors = { 400: FieldErrorsSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
/** Rows of a `no_page=true` list. */
const NO_PAGE_MAX = 1000;

export interface DocumentsRoutesOptions {
  documents: DocumentsService;
  storage: FileStorage;
  config: Config;
}

const streamToBuffer = async (stream: AsyncIterable<Buffer>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/**
 * `/api/v0/soc/{instructions,response_instructions,articles}/…` (issue 8, product §B7 Documents).
 * Every signed-in user reads; analysts and admins create and edit.
 */
export const documentsRoutes: FastifyPluginAsyncZod<DocumentsRoutesOptions> = async (
  app,
  { documents, storage, config },
) => {
  const kindRoutes = (kind: DocumentKind) => {
    const base = `/${DOCUMENT_KIND_PATHS[kind]}`;
    const tags = ['documents'];
    // the operationIds name the kind: listInstructions, getArticle, createResponseInstructionComment…
    const one = kind.replace(/(^|_)(\w)/g, (_, _sep: string, c: string) => c.toUpperCase());
    const many = `${one}s`;

    app.get(
      `${base}/`,
      {
        schema: {
          tags,
          operationId: `list${many}`,
          summary: `List of ${kind} documents: search, filters, ordering (default -updated), pages`,
          querystring: DocumentListQuerySchema,
          response: { 200: DocumentListResponseSchema, ...errors },
        },
      },
      async (request) => {
        requireAuth(request);
        const q = request.query;
        const { total, results } = await documents.list(kind, q, NO_PAGE_MAX);
        const links = q.no_page ? ONE_PAGE : pageLinks(request, config.publicUrl, total, q.page, q.page_size);
        return { total, ...links, results };
      },
    );

    app.get(
      `${base}/languages/`,
      {
        schema: {
          tags,
          operationId: `list${one}Languages`,
          summary: 'Languages in which documents of this kind exist, with counts',
          response: { 200: DocumentLanguagesResponseSchema },
        },
      },
      async (request) => {
        requireAuth(request);
        return { results: await documents.languages(kind) };
      },
    );

    app.get(
      `${base}/tags/`,
      {
        schema: {
          tags,
          operationId: `list${one}Tags`,
          summary: 'Distinct tags (filter choices)',
          response: { 200: DocumentChoicesResponseSchema },
        },
      },
      async (request) => {
        requireAuth(request);
        return { results: await documents.tags(kind) };
      },
    );

    if (kind === 'instruction') {
      app.get(
        `${base}/sensors/`,
        {
          schema: {
            tags,
            operationId: `list${one}Sensors`,
            summary: 'Distinct sensors of instructions (filter choices)',
            response: { 200: DocumentChoicesResponseSchema },
          },
        },
        async (request) => {
          requireAuth(request);
          return { results: await documents.sensors() };
        },
      );
    }

    app.post(
      `${base}/`,
      {
        schema: {
          tags,
          operationId: `create${one}`,
          summary: 'Create a document or a language variant (`document`); analysts and admins',
          body: DocumentCreateSchema,
          response: { 201: DocumentCardSchema, ...errors },
        },
      },
      async (request, reply) => {
        const card = await documents.create(kind, request.body, requireUnscoped(request), request.ip);
        return reply.code(201).send(card);
      },
    );

    app.get(
      `${base}/:id(^\\d+)/`,
      {
        schema: {
          tags,
          operationId: `get${one}`,
          summary: 'The document card',
          params: IdParams,
          response: { 200: DocumentCardSchema, ...errors },
        },
      },
      async (request) => documents.card(kind, request.params.id, requireAuth(request)),
    );

    app.patch(
      `${base}/:id(^\\d+)/`,
      {
        schema: {
          tags,
          operationId: `update${one}`,
          summary: 'Edit the document (analysts and admins); every edit creates a version',
          params: IdParams,
          body: DocumentUpdateSchema,
          response: { 200: DocumentCardSchema, ...errors },
        },
      },
      async (request) =>
        documents.update(kind, request.params.id, request.body, requireUnscoped(request), request.ip),
    );

    app.get(
      `${base}/:id(^\\d+)/history/`,
      {
        schema: {
          tags,
          operationId: `list${one}History`,
          summary: 'Versions of the document, newest first',
          params: IdParams,
          querystring: DocumentHistoryQuerySchema,
          response: { 200: DocumentHistoryResponseSchema, ...errors },
        },
      },
      async (request) => {
        requireAuth(request);
        const { page, page_size } = request.query;
        const { total, results } = await documents.history(kind, request.params.id, page, page_size);
        return { total, ...pageLinks(request, config.publicUrl, total, page, page_size), results };
      },
    );

    app.get(
      `${base}/:id(^\\d+)/comments/`,
      {
        schema: {
          tags,
          operationId: `list${one}Comments`,
          summary: 'Comments, oldest first',
          params: IdParams,
          querystring: DocumentCommentsQuerySchema,
          response: { 200: DocumentCommentListResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { page, page_size } = request.query;
        const { total, results } = await documents.comments(
          kind,
          request.params.id,
          requireAuth(request),
          page,
          page_size,
        );
        return { total, ...pageLinks(request, config.publicUrl, total, page, page_size), results };
      },
    );

    app.post(
      `${base}/:id(^\\d+)/comments/`,
      {
        config: { costLimit: 'comment' },
        schema: {
          tags,
          operationId: `create${one}Comment`,
          summary: 'Comment: multipart/form-data with the field `text` (Markdown)',
          consumes: ['multipart/form-data'],
          params: IdParams,
          response: { 201: DocumentCommentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const auth = requireUnscoped(request);
        if (!request.isMultipart()) throw new HttpError(415, msg('expectedMultipart'));
        const parts = request.parts() as AsyncIterable<MultipartPart>;
        const comment = await documents.addComment(kind, request.params.id, parts, auth, request.ip);
        return reply.code(201).send(comment);
      },
    );

    app.get(
      `${base}/:id(^\\d+)/download_pdf/`,
      {
        config: { costLimit: 'pdf' },
        schema: {
          operationId: `get${one}Pdf`,
          tags,
          summary: 'The document as PDF, saved as `{title}.pdf`',
          params: IdParams,
          response: { 200: fileAnswer('application/pdf', 'The document as PDF') },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        const card = await documents.card(kind, request.params.id, auth);
        const pdf = await documentPdf(
          card,
          async (link) => {
            const attachmentId = Number(/\/attachments\/(\d+)\/$/.exec(link)?.[1]);
            if (!attachmentId) return null;
            const file = await documents.attachment(kind, card.id, attachmentId).catch(() => null);
            return file ? streamToBuffer(await storage.open(file.storageKey)) : null;
          },
          config.branding.portalName,
        );
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', contentDisposition(`${card.title}.pdf`))
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    );

    app.post(
      `${base}/:id(^\\d+)/attachments/`,
      {
        config: { costLimit: 'upload' },
        schema: {
          tags,
          operationId: `add${one}Attachment`,
          summary: 'Attach an image or a file (multipart field `file`); analysts and admins',
          consumes: ['multipart/form-data'],
          params: IdParams,
          response: { 201: DocumentAttachmentSchema, ...errors, 413: DetailErrorSchema },
        },
      },
      async (request, reply) => {
        const auth = requireUnscoped(request);
        if (!request.isMultipart()) throw new HttpError(415, msg('expectedMultipart'));
        const parts = request.parts() as AsyncIterable<MultipartPart>;
        const attachment = await documents.addAttachment(kind, request.params.id, parts, auth, request.ip);
        return reply.code(201).send(attachment);
      },
    );

    app.get(
      `${base}/:id(^\\d+)/attachments/:attachmentId(^\\d+)/`,
      {
        schema: {
          tags,
          operationId: `get${one}Attachment`,
          summary: 'An attachment or inline image of the document (needs authorisation)',
          params: AttachmentParams,
          response: { 200: fileAnswer('application/octet-stream', 'The attachment') },
        },
      },
      async (request, reply) => {
        requireAuth(request);
        const file = await documents.attachment(kind, request.params.id, request.params.attachmentId);
        const inline = /^image\/(png|jpeg|gif|webp|avif|apng)$/.test(file.contentType);
        return reply
          .header('content-type', file.contentType)
          .header('content-length', String(file.size))
          .header('content-disposition', contentDisposition(file.filename, inline ? 'inline' : 'attachment'))
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=3600')
          .send(await storage.open(file.storageKey));
      },
    );
  };

  for (const kind of DOCUMENT_KINDS) kindRoutes(kind);
};
