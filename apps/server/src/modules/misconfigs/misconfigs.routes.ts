import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  MisconfigActionParamsSchema,
  MisconfigActionPayloadSchema,
  MisconfigDetailSchema,
  MisconfigGroupListQuerySchema,
  MisconfigGroupPageSchema,
  MisconfigListQuerySchema,
  MisconfigPageSchema,
  MisconfigParamsSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { MisconfigsService } from './misconfigs.service.ts';

const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

/** `/api/v0/soc/misconfigs/…`: security recommendations (product §A2 /misconfigs). */
export const misconfigsRoutes: FastifyPluginAsyncZod<{
  misconfigs: MisconfigsService;
  config: Config;
}> = async (app, { misconfigs, config }) => {
  const tags = ['misconfigs'];
  app.get(
    '/misconfigs/',
    {
      schema: {
        operationId: 'listMisconfigs',
        tags,
        summary: 'Security recommendations of the caller’s systems: search, filters, ordering, pages',
        querystring: MisconfigListQuerySchema,
        response: { 200: MisconfigPageSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await misconfigs.list(requireAuth(request), q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );

  app.get(
    '/misconfigs/groups/',
    {
      schema: {
        operationId: 'listMisconfigGroups',
        tags,
        summary:
          'Security recommendations grouped by title (open first), with their status counts and assets',
        querystring: MisconfigGroupListQuerySchema,
        response: { 200: MisconfigGroupPageSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, exact, results } = await misconfigs.groups(requireAuth(request), q);
      return {
        total,
        ...pageLinks(request, config.publicUrl, total, q.page, q.page_size),
        total_exact: exact,
        results,
      };
    },
  );

  app.get(
    '/misconfigs/:id/',
    {
      schema: {
        operationId: 'getMisconfig',
        tags,
        summary: 'A security recommendation with its status history',
        params: MisconfigParamsSchema,
        response: { 200: MisconfigDetailSchema, ...errors },
      },
    },
    async (request) => misconfigs.detail(requireAuth(request), request.params.id),
  );

  app.post(
    '/misconfigs/:id/:action/',
    {
      schema: {
        operationId: 'changeMisconfigStatus',
        tags,
        summary:
          'Mark a recommendation fixed (`fix`), accept its risk (`accept_risk`, comment required) or reopen it (`reopen`, comment required)',
        params: MisconfigActionParamsSchema,
        body: MisconfigActionPayloadSchema,
        response: { 200: MisconfigDetailSchema, ...errors },
      },
    },
    async (request) =>
      misconfigs.act(
        requireAuth(request),
        request.params.id,
        request.params.action,
        request.body,
        request.ip,
      ),
  );
};
