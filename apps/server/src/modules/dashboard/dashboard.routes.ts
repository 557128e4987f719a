import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AnalyticsQuerySchema,
  AnalyticsSchema,
  EpsQuerySchema,
  EpsSchema,
  FieldErrorsSchema,
  AttackLayerExportSchema,
  MitreLayerQuerySchema,
  MitreMatrixQuerySchema,
  MitreMatrixSchema,
  type MitreMatrix,
} from '@soc/contracts';
import { layerDisposition } from '../../integrations/attack/navigator-layer.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { DashboardService } from './dashboard.service.ts';

/** `/api/v0/soc/…`: the dashboard's analytics, EPS and MITRE ATT&CK matrix. */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.get(
    '/incs/analytics/',
    {
      schema: {
        operationId: 'getIncidentAnalytics',
        tags: ['dashboard'],
        summary: 'Dashboard numbers of the incidents that the filters (as in GET /soc/incs/) select',
        description:
          'Counts, SLA share, the previous period of the same length (`get_prev=True` with a created range), ' +
          'EPS, incidents per ATT&CK technique and tactic, per priority, status and category, the top 5 ' +
          'domains and IP addresses, and the registration timeline (hourly up to two days, else daily, UTC).',
        querystring: AnalyticsQuerySchema,
        response: { 200: AnalyticsSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) =>
      dashboard.analytics(
        request.query,
        requireAuth(request),
        requestLanguage(request, request.query.language),
      ),
  );

  app.get(
    '/incs/analytics/mitre_layer/',
    {
      config: { costLimit: 'layer' },
      schema: {
        tags: ['dashboard'],
        operationId: 'getIncidentMitreLayer',
        summary: 'The MITRE widget’s incidents per technique as an ATT&CK Navigator layer (format 4.5)',
        description:
          'The same filters as GET /soc/incs/analytics/ (the period and systems of the dashboard); score: the ' +
          'number of incidents of a technique; metadata: the period and systems. Texts in the caller’s language.',
        querystring: MitreLayerQuerySchema,
        response: { 200: AttackLayerExportSchema, 400: FieldErrorsSchema },
      },
    },
    async (request, reply) => {
      const layer = await dashboard.mitreLayer(
        request.query,
        requireAuth(request),
        requestLanguage(request, request.query.language),
      );
      const day = new Date(request.query.created__lte ?? Date.now()).toISOString().slice(0, 10);
      void reply.header('content-disposition', layerDisposition(`incidents-attack-layer-${day}.json`));
      return layer;
    },
  );

  app.get(
    '/dashboards/eps/',
    {
      schema: {
        operationId: 'getEpsDashboard',
        tags: ['dashboard'],
        summary: 'Events per second of the caller’s log sources and the excess over the contracted EPS',
        description:
          'Range `created__gte`…`created__lte` (ms; default the last 7 days), optional `system__in`. ' +
          'The timeline is hourly up to two days, else the daily average; the excess is counted per hour.',
        querystring: EpsQuerySchema,
        response: { 200: EpsSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => dashboard.eps(request.query, requireAuth(request)),
  );

  app.get(
    '/mitre_matrix/',
    {
      schema: {
        operationId: 'getMitreMatrix',
        tags: ['dashboard'],
        summary: 'MITRE ATT&CK Enterprise: tactics in matrix order and techniques (from MITRE’s STIX bundle)',
        description:
          'From the bundle imported with `npm run admin -- attack import`, else ATTACK_STIX_PATH or the cached ' +
          'download, else the repository’s compact data (names without descriptions). Without any, the lists ' +
          'are empty and `available` is false. `description=false` leaves out the techniques’ descriptions ' +
          '(most of the bytes) for views that show names only, such as the dashboard widget.',
        querystring: MitreMatrixQuerySchema,
        response: { 200: MitreMatrixSchema, 400: FieldErrorsSchema },
      },
    },
    async (request, reply) => {
      requireAuth(request);
      // serialised once (the schema above describes it): the matrix is large and never changes
      return (
        reply
          .header('cache-control', 'private, max-age=3600')
          .type('application/json; charset=utf-8')
          // typed as the schema's object; this is that object already serialised
          .send((await dashboard.mitreMatrixJson(request.query)) as unknown as MitreMatrix)
      );
    },
  );
};
