import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CategoryOptionSchema,
  FilterChoicesSchema,
  IssueTypeOptionSchema,
  LookupQuerySchema,
  type CategoryOption,
  type IssueTypeOption,
  type LookupQuery,
  type ResolutionOption,
  ResolutionOptionSchema,
  pageOf,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { offsetLinks } from '../../lib/pagination.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { systemScope } from '../../core/auth.ts';
import { createLookupsService, type OptionsPageQuery } from './lookups.service.ts';

const TypeParams = z.object({ type: z.string().min(1).max(64) });

/** Option lists of the incident forms and the filter row (product §A7). */
export const lookupsRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  const lookups = createLookupsService(db);

  /** One page of a titled lookup table, searched in both languages, titles in the caller's. */
  async function optionsPage<R extends { id: number; title: string }>(
    request: FastifyRequest,
    query: LookupQuery,
    table: OptionsPageQuery['table'],
    extra: OptionsPageQuery['extra'],
    issueTypeId?: number,
  ) {
    const { limit, offset } = query;
    const lang = requestLanguage(request, query.language);
    const text = query.search || query.q;
    const { rows, total } = await lookups.optionsPage<R>({
      table,
      extra,
      lang,
      text,
      issueTypeId,
      limit,
      offset,
    });
    return { total, results: rows, ...offsetLinks(request, config.publicUrl, total, limit, offset) };
  }

  app.get(
    '/issue_types/',
    {
      schema: {
        operationId: 'listIssueTypes',
        tags: ['lookups'],
        summary: 'Issue types',
        querystring: LookupQuerySchema,
        response: { 200: pageOf(IssueTypeOptionSchema) },
      },
    },
    async (request) => optionsPage<IssueTypeOption>(request, request.query, 'issue_types', 'code'),
  );

  app.get(
    '/issues/:type/categories/',
    {
      schema: {
        operationId: 'listIssueCategories',
        tags: ['lookups'],
        summary: 'Categories of an issue type (by id or code)',
        params: TypeParams,
        querystring: LookupQuerySchema,
        response: { 200: pageOf(CategoryOptionSchema) },
      },
    },
    async (request) =>
      optionsPage<CategoryOption>(
        request,
        request.query,
        'categories',
        'code',
        await lookups.issueType(request.params.type),
      ),
  );

  app.get(
    '/issues/:type/resolutions/',
    {
      schema: {
        operationId: 'listIssueResolutions',
        tags: ['lookups'],
        summary: 'Resolutions of an issue type (by id or code)',
        params: TypeParams,
        querystring: LookupQuerySchema,
        response: { 200: pageOf(ResolutionOptionSchema) },
      },
    },
    async (request) =>
      optionsPage<ResolutionOption>(
        request,
        request.query,
        'resolutions',
        'kind',
        await lookups.issueType(request.params.type),
      ),
  );

  app.get(
    '/filters/',
    {
      schema: {
        operationId: 'getIncidentFilterChoices',
        tags: ['lookups'],
        summary: 'Choices of the incident filter row, limited to the caller’s systems',
        querystring: z.strictObject({ language: z.enum(['ru', 'en']).optional() }),
        response: { 200: FilterChoicesSchema },
      },
    },
    async (request) => {
      const scope = systemScope(requireAuth(request));
      return lookups.filterChoices(scope, requestLanguage(request, request.query.language));
    },
  );
};
