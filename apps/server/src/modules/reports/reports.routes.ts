import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  ReportCreateResponseSchema,
  ReportCreateSchema,
  ReportDeleteMultipleSchema,
  ReportDeleteResponseSchema,
  ReportFileSchema,
  ReportListQuerySchema,
  ReportListResponseSchema,
  ReportRecipientRulesQuerySchema,
  ReportRecipientRulesSchema,
  ReportTaskCreateSchema,
  ReportTaskListQuerySchema,
  ReportTaskListResponseSchema,
  ReportTaskSchema,
  ReportTaskUpdateSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { contentDisposition } from '../../integrations/storage/http-files.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { msg } from '../../lib/messages.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { presentReport } from './reports.presenter.ts';
import type { ReportsService } from './reports.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

export interface ReportsRoutesOptions {
  reports: ReportsService;
  config: Config;
}

/**
 * `/api/v0/soc/reports/…` and `/api/v0/soc/report_tasks/…` (issue 11, product §B7 Reports).
 * Every call is limited to the caller's systems; another tenant's report or task is a 404.
 */
export const reportsRoutes: FastifyPluginAsyncZod<ReportsRoutesOptions> = async (
  app,
  { reports, config },
) => {
  const tags = ['reports'];

  app.get(
    '/reports/',
    {
      schema: {
        operationId: 'listReports',
        tags,
        summary: 'Generated report files: filters, ordering, pages of 100',
        querystring: ReportListQuerySchema,
        response: { 200: ReportListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await reports.list(q, requireAuth(request));
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );

  app.get(
    '/reports/recipient_rules/',
    {
      schema: {
        operationId: 'getReportRecipientRules',
        tags,
        summary: 'Who may receive a report of these systems: their allowed mail domains',
        querystring: ReportRecipientRulesQuerySchema,
        response: { 200: ReportRecipientRulesSchema, ...errors },
      },
    },
    async (request) => reports.recipientRules(request.query.systems ?? [], requireAuth(request)),
  );

  app.post(
    '/reports/create/',
    {
      config: { costLimit: 'report' },
      schema: {
        operationId: 'orderReport',
        tags,
        summary: 'Order a one-off report for a period (dates DD.MM.YYYY); it is built and e-mailed',
        body: ReportCreateSchema,
        response: { 201: ReportCreateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const language = requestLanguage(request);
      const { id } = await reports.createOneOff(request.body, requireAuth(request), request.ip, language);
      return reply.code(201).send({ id, detail: msg('reportQueued').in(language) });
    },
  );

  app.post(
    '/reports/delete_multiple/',
    {
      schema: {
        operationId: 'deleteReports',
        tags,
        summary: 'Delete several reports',
        body: ReportDeleteMultipleSchema,
        response: { 200: ReportDeleteResponseSchema, ...errors },
      },
    },
    async (request) => ({
      deleted: await reports.remove(request.body.ids, requireAuth(request), request.ip),
    }),
  );

  app.get(
    '/reports/:id/',
    {
      schema: {
        operationId: 'getReport',
        tags,
        summary: 'One report file',
        params: IdParams,
        response: { 200: ReportFileSchema, ...errors },
      },
    },
    async (request) => presentReport(await reports.one(request.params.id, requireAuth(request))),
  );

  app.get(
    '/reports/:id/download/',
    {
      schema: {
        operationId: 'downloadReport',
        tags,
        summary: 'The report file (PDF), streamed with content type and length',
        params: IdParams,
        response: { 200: fileAnswer('application/pdf', 'The report (PDF)') },
      },
    },
    async (request, reply) => {
      const { row, stream } = await reports.download(request.params.id, requireAuth(request));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(row.size))
        .header('content-disposition', contentDisposition(row.filename))
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.delete(
    '/reports/:id/',
    {
      schema: {
        operationId: 'deleteReport',
        tags,
        summary: 'Delete a report',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await reports.remove([request.params.id], requireAuth(request), request.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/report_tasks/',
    {
      schema: {
        operationId: 'listReportSchedules',
        tags,
        summary: 'Report schedules (report tasks), newest first',
        querystring: ReportTaskListQuerySchema,
        response: { 200: ReportTaskListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { page, page_size: pageSize } = request.query;
      const { total, results } = await reports.listSchedules(page, pageSize, requireAuth(request));
      return { total, ...pageLinks(request, config.publicUrl, total, page, pageSize), results };
    },
  );

  app.post(
    '/report_tasks/',
    {
      config: { costLimit: 'report' },
      schema: {
        operationId: 'createReportSchedule',
        tags,
        summary: 'Create a report schedule: period + start time (YYYY-MM-DDTHH:mm) and its crontab',
        body: ReportTaskCreateSchema,
        response: { 201: ReportTaskSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await reports.createSchedule(
            request.body,
            requireAuth(request),
            request.ip,
            requestLanguage(request),
          ),
        ),
  );

  app.patch(
    '/report_tasks/:id/',
    {
      schema: {
        operationId: 'updateReportSchedule',
        tags,
        summary: 'Change a report schedule (name only when changed; systems kept when absent)',
        params: IdParams,
        body: ReportTaskUpdateSchema,
        response: { 200: ReportTaskSchema, ...errors },
      },
    },
    async (request) =>
      reports.updateSchedule(
        request.params.id,
        request.body,
        requireAuth(request),
        request.ip,
        requestLanguage(request),
      ),
  );

  app.delete(
    '/report_tasks/:id/',
    {
      schema: {
        operationId: 'deleteReportSchedule',
        tags,
        summary: 'Delete a report schedule',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await reports.deleteSchedule(request.params.id, requireAuth(request), request.ip);
      return reply.code(204).send(null);
    },
  );
};
