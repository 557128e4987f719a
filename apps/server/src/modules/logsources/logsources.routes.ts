import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FieldErrorsSchema,
  LogSourceListQuerySchema,
  LogSourceListResponseSchema,
  LogSourceSummaryQuerySchema,
  LogSourceSummarySchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { LogSourcesService } from './logsources.service.ts';

/** `/api/v0/soc/logsources/…` (product §B7 Other: `?page_size=100&search=`, the rest is ours). */
export const logSourcesRoutes: FastifyPluginAsyncZod<{
  logSources: LogSourcesService;
  config: Config;
}> = async (app, { logSources, config }) => {
  const tags = ['logsources'];
  app.get(
    '/logsources/',
    {
      schema: {
        operationId: 'listLogSources',
        tags,
        summary: 'Log sources with status, last event and EPS (last hour, last day); search, filters, pages',
        querystring: LogSourceListQuerySchema,
        response: { 200: LogSourceListResponseSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await logSources.list(requireAuth(request), q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );

  app.get(
    '/logsources/summary/',
    {
      schema: {
        operationId: 'getLogSourceSummary',
        tags,
        summary: 'Totals of the caller’s log sources per status and per type, and their EPS',
        querystring: LogSourceSummaryQuerySchema,
        response: { 200: LogSourceSummarySchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => logSources.summary(requireAuth(request), request.query),
  );
};
