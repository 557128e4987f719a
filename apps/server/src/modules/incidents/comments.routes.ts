import type {} from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CommentListResponseSchema,
  CommentSchema,
  CommentsQuerySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import { ONE_PAGE, pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { CommentsService } from './comments.service.ts';

const KeyParams = z.object({ key: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

/** `/api/v0/soc/incs/{key}/comments/`: the chat of an incident (issue 4). */
export const commentsRoutes: FastifyPluginAsyncZod<{ comments: CommentsService; config: Config }> = async (
  app,
  { comments, config },
) => {
  app.get(
    '/:key/comments/',
    {
      schema: {
        operationId: 'listIncidentComments',
        tags: ['comments'],
        summary: 'The incident’s comments, oldest first',
        params: KeyParams,
        querystring: CommentsQuerySchema,
        response: { 200: CommentListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const page = await comments.list(request.params.key, requireAuth(request), request.query);
      const links = request.query.no_page
        ? ONE_PAGE
        : pageLinks(request, config.publicUrl, page.total, request.query.page, request.query.page_size);
      return { ...page, ...links };
    },
  );

  app.post(
    '/:key/comments/',
    {
      config: { costLimit: { bucket: 'comment', tenant: 'incident' } },
      schema: {
        operationId: 'createIncidentComment',
        tags: ['comments'],
        summary:
          'Comment: multipart `body` (Markdown), `issue_completed`, `attachments` (0–10 files, 50 MB each)',
        consumes: ['multipart/form-data'],
        params: KeyParams,
        response: { 201: CommentSchema, ...errors, 413: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, msg('expectedMultipart'));
      const parts = request.parts() as AsyncIterable<MultipartPart>;
      const comment = await comments.create(request.params.key, parts, requireAuth(request), request.ip);
      return reply.status(201).send(comment);
    },
  );
};
