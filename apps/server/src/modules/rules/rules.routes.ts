import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AttackLayerExportSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  RuleMitreTechniqueDetailSchema,
  RuleCategorySuggestQuerySchema,
  RuleCountersSchema,
  RuleCoverageSchema,
  RuleFiltersSchema,
  RuleListQuerySchema,
  RuleListResponseSchema,
  RuleDetailSchema,
  RuleSensorSuggestQuerySchema,
  RuleServicesResponseSchema,
  RuleSuggestionsResponseSchema,
  TechniqueParamsSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { layerDisposition } from '../../integrations/attack/navigator-layer.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { RuleSuggestField } from './rules.repository.ts';
import type { RulesService } from './rules.service.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };
const tags = ['rules'];

export interface RulesRoutesOptions {
  rules: RulesService;
  config: Config;
}

/**
 * `/api/v0/soc/rules/…` (issue 9, product §B7 Rules): the rule list, its counters and MITRE
 * coverage for the same filters, a rule, filter suggestions. Read-only for every signed-in user,
 * within the service levels of a customer's systems.
 */
export const rulesRoutes: FastifyPluginAsyncZod<RulesRoutesOptions> = async (app, { rules, config }) => {
  app.get(
    '/rules/',
    {
      schema: {
        operationId: 'listRules',
        tags,
        summary: 'Rules: search, filters (product §B9), ordering by created, pages (page_size up to 2000)',
        querystring: RuleListQuerySchema,
        response: { 200: RuleListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await rules.list(q, requireAuth(request));
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );

  app.get(
    '/rules/analytics_counters/',
    {
      schema: {
        operationId: 'getRuleCounters',
        tags,
        summary: 'Counters of the rules matching the filters, with MITRE coverage (overall and by platform)',
        querystring: RuleFiltersSchema,
        response: { 200: RuleCountersSchema, ...errors },
      },
    },
    async (request) => rules.counters(request.query, requireAuth(request)),
  );

  app.get(
    '/rules/coverage/',
    {
      schema: {
        operationId: 'getRuleCoverage',
        tags,
        summary: 'The MITRE ATT&CK matrix with the number of matching rules per technique',
        querystring: RuleFiltersSchema,
        response: { 200: RuleCoverageSchema, ...errors },
      },
    },
    async (request) => rules.coverage(request.query, requireAuth(request)),
  );

  app.get(
    '/rules/coverage/layer/',
    {
      config: { costLimit: 'layer' },
      schema: {
        tags,
        operationId: 'getRuleCoverageLayer',
        summary: 'The MITRE coverage of the matching rules as an ATT&CK Navigator layer (format 4.5)',
        description:
          'Score: the number of matching rules of a technique; colours: the bands of the matrix (gradient, ' +
          'legend); comment: the rule codes; metadata: the filters applied. Texts in the caller’s language.',
        querystring: RuleFiltersSchema,
        response: { 200: AttackLayerExportSchema, ...errors },
      },
    },
    async (request, reply) => {
      const layer = await rules.coverageLayer(request.query, requireAuth(request), requestLanguage(request));
      void reply.header('content-disposition', layerDisposition('rules-attack-coverage-layer.json'));
      return layer;
    },
  );

  app.get(
    '/rules/techniques/:technique_id/',
    {
      schema: {
        operationId: 'getRuleTechnique',
        tags,
        summary: 'A technique of the matrix with its description and matching rule count',
        params: TechniqueParamsSchema,
        querystring: RuleFiltersSchema,
        response: { 200: RuleMitreTechniqueDetailSchema, ...errors },
      },
    },
    async (request) => rules.technique(request.params.technique_id, request.query, requireAuth(request)),
  );

  app.get(
    '/rules/services/',
    {
      schema: {
        operationId: 'listRuleServices',
        tags,
        summary: 'Service levels whose rules the caller sees (choices of the available-for filter)',
        response: { 200: RuleServicesResponseSchema },
      },
    },
    async (request) => ({ results: await rules.services(requireAuth(request)) }),
  );

  app.get(
    '/rules/categories/',
    {
      schema: {
        operationId: 'listRuleCategories',
        tags,
        summary: 'Category suggestions (limit 7, search)',
        querystring: RuleCategorySuggestQuerySchema,
        response: { 200: RuleSuggestionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      results: await rules.suggest(
        'categories',
        request.query.search,
        request.query.limit,
        requireAuth(request),
      ),
    }),
  );

  // path, field, label, operationId
  const suggestRoutes: [string, RuleSuggestField, string, string][] = [
    ['sensors', 'sensors', 'Sensor', 'listRuleSensors'],
    ['sensor_types', 'sensor_types', 'Sensor type', 'listRuleSensorTypes'],
    ['sensor_modules', 'sensor_modules', 'Sensor module', 'listRuleSensorModules'],
    ['platforms', 'platforms', 'Platform', 'listRulePlatforms'],
  ];
  for (const [path, field, label, operationId] of suggestRoutes) {
    app.get(
      `/rules/${path}/`,
      {
        schema: {
          operationId,
          tags,
          summary: `${label} suggestions (page_size 7, name__icontains)`,
          querystring: RuleSensorSuggestQuerySchema,
          response: { 200: RuleSuggestionsResponseSchema, ...errors },
        },
      },
      async (request) => ({
        results: await rules.suggest(
          field,
          request.query.name__icontains,
          request.query.page_size,
          requireAuth(request),
        ),
      }),
    );
  }

  app.get(
    '/rules/:id(^\\d+)/',
    {
      schema: {
        tags,
        operationId: 'getRule',
        summary:
          'A rule with its localised caption and description, MITRE mapping, links, sensor tuples and, when imported, its Sigma YAML',
        params: IdParams,
        response: { 200: RuleDetailSchema, ...errors },
      },
    },
    async (request) => rules.card(request.params.id, requireAuth(request)),
  );
};
