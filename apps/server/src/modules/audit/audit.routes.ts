import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuditFiltersSchema,
  AuditListQuerySchema,
  AuditListResponseSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { AuditService } from './audit.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

/** `/api/v0/audit/…`: who did what, when and from where, in the caller's systems. */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService; config: Config }> = async (
  app,
  { audit, config },
) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEntries',
        summary: 'Audit entries of the caller’s systems, newest first, by page/page_size (50)',
        querystring: AuditListQuerySchema,
        response: { 200: AuditListResponseSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => {
      const { page, page_size: pageSize, ...filters } = request.query;
      const result = await audit.list(filters, requireAuth(request), page, pageSize);
      return { ...result, ...pageLinks(request, config.publicUrl, result.total, page, pageSize) };
    },
  );

  app.get(
    '/csv/',
    {
      config: { costLimit: 'export' },
      schema: {
        operationId: 'exportAuditCsv',
        tags: ['audit'],
        summary: 'The filtered audit entries as CSV (UTF-8 with BOM, formula-safe cells)',
        querystring: AuditFiltersSchema,
        response: { 200: fileAnswer('text/csv', 'The audit entries as CSV (a file download)') },
      },
    },
    async (request, reply) => {
      const lang = requestLanguage(request, request.query.language);
      const stream = audit.csv(request.query, requireAuth(request), lang);
      const name = `audit-${new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
