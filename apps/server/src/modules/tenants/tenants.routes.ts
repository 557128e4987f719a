import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  SystemCardSchema,
  SystemListQuerySchema,
  SystemListResponseSchema,
  SystemPeopleQuerySchema,
  SystemPeopleResponseSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { ONE_PAGE, pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { TenantsService } from './tenants.service.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

/**
 * `/api/v0/soc/systems/…`: the caller's protected systems. The list serves the pickers
 * (`no_page`, `short`, `search`) and the systems table (filters, ordering); the card by id.
 */
export const tenantsRoutes: FastifyPluginAsyncZod<{ tenants: TenantsService; config: Config }> = async (
  app,
  { tenants, config },
) => {
  const tags = ['tenants'];
  app.get(
    '/systems/',
    {
      schema: {
        operationId: 'listSystems',
        tags,
        summary: 'Protected systems of the caller: search, id/name/people filters, ordering, pages',
        querystring: SystemListQuerySchema,
        response: { 200: SystemListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await tenants.list(requireAuth(request), q);
      const links = q.no_page ? ONE_PAGE : pageLinks(request, config.publicUrl, total, q.page, q.page_size);
      return { total, ...links, results };
    },
  );

  app.get(
    '/systems/people/',
    {
      schema: {
        operationId: 'listSystemPeople',
        tags,
        summary: 'Service managers or dedicated analysts of the caller’s systems (filter choices)',
        querystring: SystemPeopleQuerySchema,
        response: { 200: SystemPeopleResponseSchema, ...errors },
      },
    },
    async (request) => ({ results: await tenants.people(requireAuth(request), request.query.role) }),
  );

  app.get(
    '/systems/:id(^\\d+)/',
    {
      schema: {
        tags,
        operationId: 'getSystem',
        summary: 'The system card: services with contracts and SLA, people, customer contacts',
        params: IdParams,
        response: { 200: SystemCardSchema, ...errors },
      },
    },
    async (request) => tenants.card(requireAuth(request), request.params.id),
  );
};
