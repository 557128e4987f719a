import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AlertBulkPayloadSchema,
  AlertBulkResultSchema,
  AlertDetailSchema,
  AlertLinkQuerySchema,
  AlertLinkSchema,
  AlertListQuerySchema,
  AlertPageSchema,
  AlertPatchSchema,
  AlertTreeSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  GroupedAlertDataSchema,
  IncidentAlertsQuerySchema,
  IncidentIocsPayloadSchema,
  IocListSchema,
  LinkTemplateCreateSchema,
  LinkTemplateListSchema,
  LinkTemplateSchema,
  MisconfigPageSchema,
  MisconfigsQuerySchema,
  ResponseTeamListSchema,
  ResponseTeamsQuerySchema,
  SnapshotPageSchema,
  SnapshotsQuerySchema,
  SymptomaticQuerySchema,
  TagListSchema,
  TagsQuerySchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { requireUnscoped } from '../../lib/token-scope.ts';
import type { AlertsService } from './alerts.service.ts';

const Key = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const KeyParams = z.object({ key: Key });
const AlertParams = z.object({ key: Key, uuid: z.string().max(64) });
const UuidParams = z.object({ uuid: z.string().max(64) });
const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

export interface AlertsRoutesOptions {
  alerts: AlertsService;
  config: Config;
}

/**
 * Alerts of an incident and across incidents, tags, response teams, link templates, CMDB
 * snapshots and misconfigurations (product §A7). Registered under `/api/v0`.
 */
export const alertsRoutes: FastifyPluginAsyncZod<AlertsRoutesOptions> = async (app, { alerts, config }) => {
  const paged = <T>(
    request: Parameters<typeof pageLinks>[0],
    page: { total: number; results: T[] },
    q: { page: number; page_size: number },
  ) => ({ ...page, ...pageLinks(request, config.publicUrl, page.total, q.page, q.page_size) });

  app.get(
    '/soc/incs/:key/alerts/',
    {
      schema: {
        operationId: 'listIncidentAlerts',
        tags: ['alerts'],
        summary: 'The incident’s alerts, newest first, by page',
        params: KeyParams,
        querystring: IncidentAlertsQuerySchema,
        response: { 200: AlertPageSchema, ...errors },
      },
    },
    async (request) =>
      paged(
        request,
        await alerts.incidentAlerts(request.params.key, request.query, requireAuth(request)),
        request.query,
      ),
  );

  app.get(
    '/soc/incs/:key/alerts/:uuid/',
    {
      schema: {
        operationId: 'getIncidentAlert',
        tags: ['alerts'],
        summary: 'One alert of the incident',
        params: AlertParams,
        response: { 200: AlertDetailSchema, ...errors },
      },
    },
    async (request) => alerts.incidentAlert(request.params.key, request.params.uuid, requireAuth(request)),
  );

  app.get(
    '/soc/incs/:key/alerts/:uuid/grouped_alert_data/',
    {
      schema: {
        operationId: 'getAlertGroupedData',
        tags: ['alerts'],
        summary: 'The alert’s event fields with their distinct values and counts',
        params: AlertParams,
        response: { 200: GroupedAlertDataSchema, ...errors },
      },
    },
    async (request) => alerts.groupedData(request.params.key, request.params.uuid, requireAuth(request)),
  );

  app.get(
    '/soc/incs/:key/alerts/:uuid/tree/',
    {
      schema: {
        operationId: 'getAlertProcessTree',
        tags: ['alerts'],
        summary: 'The process tree of the alert’s events (nested)',
        description: 'An alert without process events answers 400 with non_field_errors.',
        params: AlertParams,
        response: { 200: AlertTreeSchema, ...errors },
      },
    },
    async (request) => alerts.tree(request.params.key, request.params.uuid, requireAuth(request)),
  );

  app.get(
    '/soc/incs/:key/alerts/:uuid/symptomatic/',
    {
      schema: {
        operationId: 'listSymptomaticAlerts',
        tags: ['alerts'],
        summary: 'The other alerts of the alert’s correlation group',
        params: AlertParams,
        querystring: SymptomaticQuerySchema,
        response: { 200: AlertPageSchema, ...errors },
      },
    },
    async (request) =>
      paged(
        request,
        await alerts.symptomatic(
          request.params.key,
          request.params.uuid,
          request.query,
          requireAuth(request),
        ),
        request.query,
      ),
  );

  app.put(
    '/soc/incs/:key/iocs/',
    {
      schema: {
        operationId: 'replaceIncidentIocs',
        tags: ['alerts'],
        summary: 'Analysts: replace the incident’s identified IOCs (each value checked against its type)',
        params: KeyParams,
        body: IncidentIocsPayloadSchema,
        response: { 200: IocListSchema, ...errors, 403: DetailErrorSchema },
      },
    },
    async (request) => ({
      results: await alerts.setIocs(request.params.key, request.body, requireAuth(request), request.ip),
    }),
  );

  app.get(
    '/soc/incs/:key/snapshots/',
    {
      schema: {
        operationId: 'listIncidentSnapshots',
        tags: ['alerts'],
        summary: 'CMDB assets of the incident as they were when involved (paged through next)',
        params: KeyParams,
        querystring: SnapshotsQuerySchema,
        response: { 200: SnapshotPageSchema, ...errors },
      },
    },
    async (request) =>
      paged(
        request,
        await alerts.snapshots(request.params.key, request.query, requireAuth(request)),
        request.query,
      ),
  );

  app.get(
    '/soc/incs/:key/misconfigs/',
    {
      schema: {
        operationId: 'listIncidentMisconfigs',
        tags: ['alerts'],
        summary: 'Misconfigurations of a Remediation incident',
        params: KeyParams,
        querystring: MisconfigsQuerySchema,
        response: { 200: MisconfigPageSchema, ...errors },
      },
    },
    async (request) =>
      paged(
        request,
        await alerts.misconfigs(request.params.key, request.query, requireAuth(request)),
        request.query,
      ),
  );

  app.get(
    '/soc/alerts/',
    {
      schema: {
        operationId: 'listAlerts',
        tags: ['alerts'],
        summary: 'Alerts of the caller’s systems, filtered and ordered by the alert columns',
        querystring: AlertListQuerySchema,
        response: { 200: AlertPageSchema, ...errors },
      },
    },
    async (request) => paged(request, await alerts.list(request.query, requireAuth(request)), request.query),
  );

  app.post(
    '/soc/alerts/bulk/',
    {
      schema: {
        operationId: 'bulkUpdateAlerts',
        tags: ['alerts'],
        summary: 'One action on alerts and alert groups, all or nothing',
        description:
          'Every alert (named or in a group) must belong to the caller’s systems; one that does not makes the ' +
          'whole request a 404 and nothing changes.',
        body: AlertBulkPayloadSchema,
        response: { 200: AlertBulkResultSchema, ...errors },
      },
    },
    async (request) => alerts.bulk(request.body, requireAuth(request), request.ip),
  );

  app.patch(
    '/soc/alerts/:uuid/',
    {
      schema: {
        operationId: 'updateAlert',
        tags: ['alerts'],
        summary: 'Set an alert’s tags (the whole list) and/or response team ({id} or null)',
        params: UuidParams,
        body: AlertPatchSchema,
        response: { 200: AlertDetailSchema, ...errors },
      },
    },
    async (request) => alerts.patch(request.params.uuid, request.body, requireAuth(request), request.ip),
  );

  app.get(
    '/soc/tags/',
    {
      schema: {
        operationId: 'listTags',
        tags: ['alerts'],
        summary: 'Tag suggestions of the caller’s systems',
        querystring: TagsQuerySchema,
        response: { 200: TagListSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => ({ results: await alerts.tags(request.query, requireAuth(request)) }),
  );

  app.get(
    '/soc/response_teams/',
    {
      schema: {
        operationId: 'listResponseTeams',
        tags: ['alerts'],
        summary: 'Response teams of the caller’s systems',
        querystring: ResponseTeamsQuerySchema,
        response: { 200: ResponseTeamListSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => ({ results: await alerts.responseTeams(request.query, requireAuth(request)) }),
  );

  app.get(
    '/alerts/:uuid/available_links_templates/',
    {
      schema: {
        operationId: 'listAlertLinkTemplates',
        tags: ['alerts'],
        summary: 'Link templates whose field has values in the alert, with those values',
        params: UuidParams,
        response: { 200: LinkTemplateListSchema, ...errors },
      },
    },
    async (request) => ({
      results: await alerts.availableLinkTemplates(request.params.uuid, requireAuth(request)),
    }),
  );

  app.get(
    '/alerts/:uuid/link/',
    {
      schema: {
        operationId: 'getAlertLink',
        tags: ['alerts'],
        summary: 'A link template filled with one of the alert’s values (http and https only)',
        params: UuidParams,
        querystring: AlertLinkQuerySchema,
        response: { 200: AlertLinkSchema, ...errors },
      },
    },
    async (request) => alerts.link(request.params.uuid, request.query, requireAuth(request)),
  );

  app.post(
    '/alerts/links_templates/',
    {
      schema: {
        operationId: 'createLinkTemplate',
        tags: ['alerts'],
        summary: 'Analysts: add a link template (`{value}` marks the value; http and https only)',
        body: LinkTemplateCreateSchema,
        response: { 201: LinkTemplateSchema, 400: FieldErrorsSchema, 403: DetailErrorSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await alerts.createLinkTemplate(request.body, requireUnscoped(request), request.ip)),
  );
};
