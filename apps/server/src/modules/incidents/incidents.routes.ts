import type {} from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddFilesResponseSchema,
  AsyncCsvResponseSchema,
  DEFAULT_INCIDENT_ORDERING,
  DetailErrorSchema,
  FieldErrorsSchema,
  IncidentCreateSchema,
  IncidentFiltersSchema,
  IncidentListItemSchema,
  IncidentListQuerySchema,
  IncidentListResponseSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { offsetLinks } from '../../lib/pagination.ts';
import { msg } from '../../lib/messages.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { UploadPart } from '../../integrations/storage/multipart.ts';
import type { IncidentsService } from './incidents.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

const KeyParams = z.object({ key: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** `/api/v0/soc/incs/…`: the incident list, creation, uploads and CSV export. */
export const incidentsRoutes: FastifyPluginAsyncZod<{ incidents: IncidentsService; config: Config }> = async (
  app,
  { incidents, config },
) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['incidents'],
        operationId: 'listIncidents',
        summary: 'Incidents of the caller’s systems: filters, search, ordering, limit/offset (40)',
        querystring: IncidentListQuerySchema,
        response: { 200: IncidentListResponseSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const { limit, offset, ordering, ...filters } = request.query;
      const lang = requestLanguage(request, filters.language);
      const { total, exact, results } = await incidents.list(
        filters,
        requireAuth(request),
        ordering ?? DEFAULT_INCIDENT_ORDERING,
        limit,
        offset,
        lang,
      );
      return { total, results, ...offsetLinks(request, config.publicUrl, total, limit, offset, exact) };
    },
  );

  app.post(
    '/',
    {
      config: { costLimit: { bucket: 'incident', tenant: 'body' } },
      schema: {
        tags: ['incidents'],
        operationId: 'createIncident',
        summary: 'Register an incident in one of the caller’s systems',
        body: IncidentCreateSchema,
        response: { 201: IncidentListItemSchema, 400: FieldErrorsSchema },
      },
    },
    async (request, reply) => {
      const item = await incidents.create(
        request.body,
        requireAuth(request),
        request.ip,
        requestLanguage(request),
      );
      return reply.status(201).send(item);
    },
  );

  app.post(
    '/:key/add_file/',
    {
      config: { costLimit: { bucket: 'upload', tenant: 'incident' } },
      schema: {
        operationId: 'addIncidentFiles',
        tags: ['incidents'],
        summary: 'Attach 1–10 files (50 MB each) to an incident; multipart field `attachments`',
        consumes: ['multipart/form-data'],
        params: KeyParams,
        response: {
          200: AddFilesResponseSchema,
          400: FieldErrorsSchema,
          404: DetailErrorSchema,
          413: DetailErrorSchema,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart())
        throw Object.assign(new Error('Expected multipart/form-data.'), { statusCode: 415 });
      const parts = request.files() as AsyncIterable<UploadPart>;
      const stored = await incidents.addFiles(request.params.key, parts, requireAuth(request), request.ip);
      return { attachments: stored };
    },
  );

  const CsvQuerySchema = IncidentFiltersSchema;

  app.get(
    '/get_csv/',
    {
      config: { costLimit: 'export' },
      schema: {
        operationId: 'exportIncidentsCsv',
        tags: ['incidents'],
        summary: 'The filtered incidents as CSV (UTF-8 with BOM), or `max_records_exceeded`',
        description:
          'Answers `text/csv` as a file download. Above CSV_SYNC_MAX_ROWS matching rows it answers 400 ' +
          '`{detail, code: "max_records_exceeded", max_records, total}`: call get_async_csv/ instead. ' +
          '`total` is the list’s total (10,000 where the list counts no further).',
        querystring: CsvQuerySchema,
        response: { 200: fileAnswer('text/csv', 'The incidents as CSV (a file download)') },
      },
    },
    async (request, reply) => {
      const { ordering, ...filters } = request.query;
      const lang = requestLanguage(request, filters.language);
      const stream = await incidents.csv(
        filters,
        requireAuth(request),
        ordering ?? DEFAULT_INCIDENT_ORDERING,
        lang,
      );
      const name = `incidents-${new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.get(
    '/get_async_csv/',
    {
      config: { costLimit: 'export' },
      schema: {
        operationId: 'mailIncidentsCsv',
        tags: ['incidents'],
        summary: 'Build the CSV in the background and e-mail it to the caller',
        querystring: CsvQuerySchema,
        response: { 202: AsyncCsvResponseSchema, 400: FieldErrorsSchema },
      },
    },
    async (request, reply) => {
      const lang = requestLanguage(request, request.query.language);
      // the job keeps the query as sent (already validated); it is parsed again when the job runs
      const original = Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);
      const { email } = await incidents.queueCsv(original, requireAuth(request), lang, request.ip);
      return reply.status(202).send({
        detail: msg('csvMailQueued', email).in(lang),
        email,
      });
    },
  );
};
