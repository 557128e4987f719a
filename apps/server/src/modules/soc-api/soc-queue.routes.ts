import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  QueueBulkResultSchema,
  QueueBulkSchema,
  QueueCountsQuerySchema,
  QueueCountsSchema,
  QueueListQuerySchema,
  QueueListResponseSchema,
  StaffListQuerySchema,
  StaffListResponseSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { offsetLinks } from '../../lib/pagination.ts';
import { requireAuth, requireRole } from '../../lib/request-auth.ts';
import type { SocQueueService } from './soc-queue.service.ts';

const errors = { 400: FieldErrorsSchema, 401: DetailErrorSchema, 403: DetailErrorSchema };

/**
 * `/api/v0/analyst/queue/…` (roles analyst and admin; customers get 403): what waits for the
 * SOC across every system the caller may see (a token scoped to systems: only those).
 */
export const socQueueRoutes: FastifyPluginAsyncZod<{ queue: SocQueueService; config: Config }> = async (
  app,
  { queue, config },
) => {
  // before validation, so that customers learn nothing from field errors
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'analyst', 'admin');
  });
  const tags = ['analyst'];

  app.get(
    '/queue/',
    {
      schema: {
        operationId: 'analystListQueue',
        tags,
        summary: 'The triage queue: open incidents that wait for the SOC, and why',
        description:
          'An open incident waits when it is Waiting for support, reopened, has a customer comment newer ' +
          'than the SOC’s last one, its SLA deadline is within the hour or passed while the customer is not ' +
          'notified, or it has no SOC assignee (`reasons`). By SLA deadline first (none last) unless ' +
          '`ordering` says otherwise; limit/offset (40); the total is exact up to 10,000 (`total_exact`).',
        querystring: QueueListQuerySchema,
        response: { 200: QueueListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const result = await queue.list(request.query, requireAuth(request), requestLanguage(request));
      const { limit, offset } = request.query;
      return {
        ...result,
        ...offsetLinks(request, config.publicUrl, result.total, limit, offset, result.total_exact),
      };
    },
  );

  app.get(
    '/queue/counts/',
    {
      schema: {
        operationId: 'analystQueueCounts',
        tags,
        summary: 'The incidents that wait for the SOC per tenant (the queue’s filters apply)',
        querystring: QueueCountsQuerySchema,
        response: { 200: QueueCountsSchema, ...errors },
      },
    },
    async (request) => queue.counts(request.query, requireAuth(request)),
  );

  app.get(
    '/staff/',
    {
      schema: {
        operationId: 'analystListStaff',
        tags,
        summary: 'The provider’s active staff (analysts and administrators), to assign incidents to',
        description: 'By username; `search` matches part of the username or the name; limit/offset (50).',
        querystring: StaffListQuerySchema,
        response: { 200: StaffListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const result = await queue.staff(request.query, requireAuth(request));
      const { limit, offset } = request.query;
      return { ...result, ...offsetLinks(request, config.publicUrl, result.total, limit, offset) };
    },
  );

  app.post(
    '/queue/bulk/',
    {
      schema: {
        operationId: 'analystQueueBulk',
        tags,
        summary: 'Assign the SOC assignee, set the priority or the status of many incidents',
        description:
          'Each incident is changed as its own call would change it (`PATCH /analyst/incidents/{key}/`, ' +
          '`POST …/status/`): audited, with its events; the answer gives each one’s result, a refused ' +
          'incident (400 workflow or field error, 404 out of scope) leaving the others changed.',
        body: QueueBulkSchema.meta({
          examples: [{ action: 'assign', keys: [10001, 10002], soc_assignee: 2 }],
        }),
        response: { 200: QueueBulkResultSchema, ...errors },
      },
    },
    async (request) => queue.bulk(request.body, requireAuth(request), request.ip, requestLanguage(request)),
  );
};
