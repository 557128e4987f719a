import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IncidentAction } from '@soc/contracts';
import {
  AssignPayloadSchema,
  AvailableActionsSchema,
  ClosePayloadSchema,
  ConfirmPayloadSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  GossopkaStatusSchema,
  IncidentCardSchema,
  IncidentPatchSchema,
  IncidentPdfQuerySchema,
  RatingPayloadSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { contentDisposition } from '../../integrations/storage/http-files.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { sendAttachment } from './attachments.service.ts';
import type { CommentsService } from './comments.service.ts';
import type { GossopkaService } from './gossopka.service.ts';
import type { IncidentCardService } from './incident-card.service.ts';
import { incidentPdf } from './incident-pdf.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

const KeyParams = z.object({ key: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

export interface IncidentCardRoutesOptions {
  card: IncidentCardService;
  comments: CommentsService;
  gossopka: GossopkaService;
  db: Db;
  storage: FileStorage;
  config: Config;
}

/** `/api/v0/soc/incs/{key}/…`: the incident page (issue 4). */
export const incidentCardRoutes: FastifyPluginAsyncZod<IncidentCardRoutesOptions> = async (
  app,
  { card, comments, gossopka, db, storage, config },
) => {
  app.get(
    '/:key/',
    {
      schema: {
        operationId: 'getIncident',
        tags: ['incidents'],
        summary: 'The incident card (product §A3 Incident)',
        params: KeyParams,
        response: { 200: IncidentCardSchema, ...errors },
      },
    },
    async (request) => card.card(request.params.key, requireAuth(request), requestLanguage(request)),
  );

  app.patch(
    '/:key/',
    {
      schema: {
        operationId: 'updateIncident',
        tags: ['incidents'],
        summary:
          'Change the priority (customers: low, medium, high; analysts also critical) or plan the national-centre report',
        params: KeyParams,
        body: IncidentPatchSchema,
        response: { 200: IncidentCardSchema, ...errors },
      },
    },
    async (request) =>
      card.patch(
        request.params.key,
        request.body,
        requireAuth(request),
        request.ip,
        requestLanguage(request),
      ),
  );

  app.get(
    '/:key/available_actions/',
    {
      schema: {
        operationId: 'listIncidentActions',
        tags: ['incidents'],
        summary: 'Workflow actions the incident’s status and the caller’s rights allow',
        params: KeyParams,
        response: { 200: AvailableActionsSchema, ...errors },
      },
    },
    async (request) => ({ results: await card.availableActions(request.params.key, requireAuth(request)) }),
  );

  const actions: {
    action: IncidentAction;
    body: typeof ConfirmPayloadSchema | typeof ClosePayloadSchema;
    summary: string;
  }[] = [
    {
      action: 'confirm',
      body: ConfirmPayloadSchema,
      summary: 'Confirm (true positive): Waiting for customer → Work in progress',
    },
    {
      action: 'close',
      body: ClosePayloadSchema,
      summary: 'Close with a comment and a resolution (TP/FP) → Closed',
    },
    {
      action: 'reopen',
      body: ConfirmPayloadSchema,
      summary: 'Reopen a finished incident → Waiting for support',
    },
    { action: 'complete', body: ConfirmPayloadSchema, summary: 'Analysts: complete an incident → Completed' },
    { action: 'cancel', body: ConfirmPayloadSchema, summary: 'Analysts: cancel an incident → Canceled' },
  ];
  for (const { action, body, summary } of actions) {
    app.post(
      `/:key/${action}/`,
      {
        schema: {
          operationId: `${action}Incident`,
          tags: ['incidents'],
          summary,
          description: 'An action not in available_actions answers 400 with non_field_errors.',
          params: KeyParams,
          body,
          response: { 200: IncidentCardSchema, ...errors },
        },
      },
      async (request) =>
        card.runAction(
          action,
          request.params.key,
          request.body,
          requireAuth(request),
          request.ip,
          requestLanguage(request),
        ),
    );
  }

  app.post(
    '/:key/assign_to_customer/',
    {
      schema: {
        operationId: 'assignIncident',
        tags: ['incidents'],
        summary: 'Assign an active user of the incident’s system, or clear the assignee with null',
        params: KeyParams,
        body: AssignPayloadSchema,
        response: { 200: IncidentCardSchema, ...errors },
      },
    },
    async (request) =>
      card.assign(
        request.params.key,
        request.body.customer_assignee_id,
        requireAuth(request),
        request.ip,
        requestLanguage(request),
      ),
  );

  app.get(
    '/:key/attachments/:id/download/',
    {
      schema: {
        operationId: 'downloadIncidentAttachment',
        tags: ['incidents'],
        summary: 'Download an attachment (single byte ranges supported)',
        params: KeyParams.extend({ id: z.string().max(64) }),
        response: {
          200: fileAnswer('application/octet-stream', 'The file'),
          206: fileAnswer('application/octet-stream', 'A byte range of the file (`Range`)'),
          416: DetailErrorSchema,
        },
      },
    },
    async (request, reply) =>
      sendAttachment(
        db,
        storage,
        request.params.key,
        request.params.id,
        requireAuth(request),
        request.headers.range,
        reply,
      ),
  );

  app.post(
    '/:key/add_rating/',
    {
      schema: {
        operationId: 'rateIncident',
        tags: ['incidents'],
        summary: 'Rate a handled incident (0–5 stars and a comment), once',
        params: KeyParams,
        body: RatingPayloadSchema,
        response: { 200: IncidentCardSchema, ...errors },
      },
    },
    async (request) =>
      card.rate(request.params.key, request.body, requireAuth(request), request.ip, requestLanguage(request)),
  );

  app.get(
    '/:key/get_pdf_inc/',
    {
      config: { costLimit: { bucket: 'pdf', tenant: 'incident' } },
      schema: {
        operationId: 'getIncidentPdf',
        tags: ['incidents'],
        summary: 'The incident as PDF, in the caller’s language (or `?language=`)',
        params: KeyParams,
        querystring: IncidentPdfQuerySchema,
        response: { 200: fileAnswer('application/pdf', 'The incident as PDF') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const lang = requestLanguage(request, request.query.language);
      const shown = await card.card(request.params.key, auth, lang);
      const chat = await comments.list(request.params.key, auth, { page: 1, page_size: 1, no_page: true });
      const pdf = incidentPdf(shown, chat.results, lang, config.branding.portalName);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(`incident-${shown.key}.pdf`))
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.post(
    '/:key/manually_send_to_gossopka/',
    {
      schema: {
        operationId: 'sendIncidentToNationalCentre',
        tags: ['incidents'],
        summary: 'Send the incident to the national incident-reporting centre',
        description:
          '202 when a send starts (state `processing`, at most 5 minutes); 200 with the current state when it ' +
          'is already processing or sent (retries are idempotent).',
        params: KeyParams,
        response: { 200: GossopkaStatusSchema, 202: GossopkaStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { status, started } = await gossopka.requestSend(
        request.params.key,
        requireAuth(request),
        request.ip,
      );
      return reply.status(started ? 202 : 200).send(status);
    },
  );
};
