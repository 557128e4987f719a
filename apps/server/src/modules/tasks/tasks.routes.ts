import type {} from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CommentListResponseSchema,
  CommentSchema,
  CommentsQuerySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  TaskDetailSchema,
  TaskIdParamsSchema,
  TaskListQuerySchema,
  TaskListResponseSchema,
  TaskStatusPayloadSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import { ONE_PAGE, pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { TasksService } from './tasks.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

/** `/api/v0/soc/tasks/…`: service requests to the SOC with a chat (product §A2, §A9). */
export const tasksRoutes: FastifyPluginAsyncZod<{ tasks: TasksService; config: Config }> = async (
  app,
  { tasks, config },
) => {
  const tags = ['tasks'];
  app.get(
    '/tasks/',
    {
      schema: {
        operationId: 'listTasks',
        tags,
        summary: 'Tasks of the caller’s systems: search, filters, ordering, pages',
        querystring: TaskListQuerySchema,
        response: { 200: TaskListResponseSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await tasks.list(requireAuth(request), q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );

  app.post(
    '/tasks/',
    {
      config: { costLimit: 'upload' },
      schema: {
        operationId: 'createTask',
        tags,
        summary:
          'Open a task: multipart `system`, `type`, `subject`, `description` (Markdown), `priority`, `attachments` (0–10 files, 50 MB each)',
        consumes: ['multipart/form-data'],
        response: { 201: TaskDetailSchema, 400: FieldErrorsSchema, 413: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, msg('expectedMultipart'));
      const task = await tasks.create(
        request.parts() as AsyncIterable<MultipartPart>,
        requireAuth(request),
        request.ip,
      );
      return reply.status(201).send(task);
    },
  );

  app.get(
    '/tasks/:id/',
    {
      schema: {
        operationId: 'getTask',
        tags,
        summary: 'A task with its description, files and the statuses the caller may set',
        params: TaskIdParamsSchema,
        response: { 200: TaskDetailSchema, ...errors },
      },
    },
    async (request) => tasks.detail(requireAuth(request), request.params.id),
  );

  app.post(
    '/tasks/:id/status/',
    {
      schema: {
        operationId: 'setTaskStatus',
        tags,
        summary: 'Set the status (analysts: any; customers: close, or reopen a resolved or closed task)',
        params: TaskIdParamsSchema,
        body: TaskStatusPayloadSchema,
        response: { 200: TaskDetailSchema, ...errors },
      },
    },
    async (request) => tasks.setStatus(requireAuth(request), request.params.id, request.body, request.ip),
  );

  app.get(
    '/tasks/:id/messages/',
    {
      schema: {
        operationId: 'listTaskMessages',
        tags,
        summary: 'The task’s chat, oldest first',
        params: TaskIdParamsSchema,
        querystring: CommentsQuerySchema,
        response: { 200: CommentListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await tasks.messages(requireAuth(request), request.params.id, q);
      const links = q.no_page
        ? ONE_PAGE
        : pageLinks(request, config.publicUrl, page.total, q.page, q.page_size);
      return { total: page.total, ...links, results: page.results };
    },
  );

  app.post(
    '/tasks/:id/messages/',
    {
      config: { costLimit: { bucket: 'comment', tenant: 'task' } },
      schema: {
        operationId: 'createTaskMessage',
        tags,
        summary: 'Write in the chat: multipart `body` (Markdown), `attachments` (0–10 files, 50 MB each)',
        consumes: ['multipart/form-data'],
        params: TaskIdParamsSchema,
        response: { 201: CommentSchema, ...errors, 413: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, msg('expectedMultipart'));
      const message = await tasks.addMessage(
        requireAuth(request),
        request.params.id,
        request.parts() as AsyncIterable<MultipartPart>,
        request.ip,
      );
      return reply.status(201).send(message);
    },
  );

  app.get(
    '/tasks/:id/attachments/:file/download/',
    {
      schema: {
        operationId: 'downloadTaskAttachment',
        tags,
        summary: 'Download a file of a task or its chat (single byte ranges supported)',
        params: TaskIdParamsSchema.extend({ file: z.string().max(64) }),
        response: {
          200: fileAnswer('application/octet-stream', 'The file'),
          206: fileAnswer('application/octet-stream', 'A byte range of the file (`Range`)'),
          416: DetailErrorSchema,
        },
      },
    },
    async (request, reply) =>
      tasks.sendAttachment(
        requireAuth(request),
        request.params.id,
        request.params.file,
        request.headers.range,
        reply,
      ),
  );
};
