import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnalystAlertsBulkResultSchema,
  AnalystAlertsBulkSchema,
  AnalystCommentSchema,
  AnalystIncidentCardSchema,
  AnalystIncidentCreateSchema,
  AnalystIncidentUpdateSchema,
  AnalystLogSourceCreateSchema,
  AnalystLogSourceSchema,
  AnalystMisconfigsCreateSchema,
  AnalystMisconfigsResultSchema,
  AnalystNoteCreateSchema,
  AnalystNoteListResponseSchema,
  AnalystNoteSchema,
  AnalystNotesQuerySchema,
  AnalystRuleUpsertSchema,
  AnalystStatusSchema,
  DOCUMENT_KIND_PATHS,
  DOCUMENT_KINDS,
  DetailErrorSchema,
  DocumentCardSchema,
  DocumentCreateSchema,
  EpsSamplesResultSchema,
  EpsSamplesSchema,
  FieldErrorsSchema,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX,
  MarkdownPreviewRequestSchema,
  MarkdownPreviewSchema,
  RuleSchema,
} from '@soc/contracts';
import type { DocumentKind } from '@soc/contracts';
import { requestLanguage } from '../../plugins/auth.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth, requireRole } from '../../lib/request-auth.ts';
import { requireUnscoped } from '../../lib/token-scope.ts';
import type { Idempotency } from './idempotency.ts';
import { EXAMPLE_ALERT, EXAMPLE_INCIDENT, EXAMPLE_RULE } from './soc-api.examples.ts';
import type { SocApiService } from './soc-api.service.ts';

const KeyParams = z.object({ key: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const KindParams = z.object({
  kind: z.enum(DOCUMENT_KINDS.map((k) => DOCUMENT_KIND_PATHS[k]) as [string, ...string[]]),
});
/** Declares the header in the OpenAPI document; the other headers pass untouched. */
const IdempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z.string().max(IDEMPOTENCY_KEY_MAX).optional().meta({
    description: 'Makes the create call safe to retry: the same key answers the first answer (24 h).',
  }),
});
const errors = {
  400: FieldErrorsSchema,
  401: DetailErrorSchema,
  403: DetailErrorSchema,
  404: DetailErrorSchema,
  409: DetailErrorSchema,
  422: DetailErrorSchema,
};
const CommentResultSchema = z.object({
  id: z.number().int(),
  author: z.string(),
  /** Sanitised HTML. */
  body: z.string(),
  from_soc: z.boolean(),
  created: z.number().int(),
  /** The incident's status after the comment. */
  status: z.string(),
});

/**
 * `/api/v0/analyst/…` (roles analyst and admin; customers get 403): the provider's analysts
 * and their SIEM/SOAR feed the portal. Authenticate with a session or a service token
 * (`Authorization: Bearer socp_…`); a token scoped to systems works only on them.
 */
export const socApiRoutes: FastifyPluginAsyncZod<{
  socApi: SocApiService;
  idempotency: Idempotency;
  /** PUBLIC_URL, for the links of paged lists. */
  publicUrl?: string;
}> = async (app, { socApi, idempotency, publicUrl }) => {
  // before validation, so that customers learn nothing from field errors
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'analyst', 'admin');
  });
  const tags = ['analyst'];

  app.post(
    '/incidents/',
    {
      config: { costLimit: { bucket: 'incident', tenant: 'body' } },
      schema: {
        operationId: 'analystCreateIncident',
        tags,
        summary: 'Create an incident with every field of product §A3, its alerts and asset snapshots',
        description:
          'Starts in Waiting for customer; the SLA deadline follows the service’s SLA row for the priority. ' +
          'Alerts are stored with the incident (each uuid once). Idempotent with `Idempotency-Key`.',
        headers: IdempotencyHeaders,
        body: AnalystIncidentCreateSchema.meta({ examples: [EXAMPLE_INCIDENT] }),
        response: { 201: AnalystIncidentCardSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 201, () =>
        socApi.createIncident(request.body, requireAuth(request), request.ip, requestLanguage(request)),
      ),
  );

  app.get(
    '/incidents/:key/',
    {
      schema: {
        operationId: 'analystGetIncident',
        tags,
        summary: 'The incident card as staff see it (the customer’s card and the SOC assignee)',
        params: KeyParams,
        response: { 200: AnalystIncidentCardSchema, ...errors },
      },
    },
    async (request) => socApi.staffCard(request.params.key, requireAuth(request), requestLanguage(request)),
  );

  app.patch(
    '/incidents/:key/',
    {
      schema: {
        operationId: 'analystUpdateIncident',
        tags,
        summary: 'Change incident fields (lists replace the stored ones; `affected_assets` adds snapshots)',
        params: KeyParams,
        body: AnalystIncidentUpdateSchema.meta({
          examples: [
            {
              priority: 'critical',
              tags: ['phishing', 'c2', 'escalated'],
              mitre_cov: { execution: ['T1059.001'] },
            },
          ],
        }),
        response: { 200: AnalystIncidentCardSchema, ...errors },
      },
    },
    async (request) =>
      socApi.updateIncident(
        request.params.key,
        request.body,
        requireAuth(request),
        request.ip,
        requestLanguage(request),
      ),
  );

  app.post(
    '/incidents/:key/status/',
    {
      schema: {
        operationId: 'analystSetIncidentStatus',
        tags,
        summary: 'Set Completed or Canceled, with a comment shown as the SOC’s',
        description: 'Refused with 400 when the status flow does not allow it (design §5).',
        params: KeyParams,
        body: AnalystStatusSchema.meta({
          examples: [{ status: 'completed', comment: 'The host was cleaned and re-imaged.' }],
        }),
        response: { 200: AnalystIncidentCardSchema, ...errors },
      },
    },
    async (request) =>
      socApi.setStatus(
        request.params.key,
        request.body,
        requireAuth(request),
        request.ip,
        requestLanguage(request),
      ),
  );

  app.post(
    '/incidents/:key/comments/',
    {
      config: { costLimit: { bucket: 'comment', tenant: 'incident' } },
      schema: {
        operationId: 'analystCommentIncident',
        tags,
        summary: 'Post an analyst comment (marked as the SOC’s; Markdown)',
        description:
          'In Waiting for support the comment hands the incident back to the customer. Idempotent with `Idempotency-Key`.',
        headers: IdempotencyHeaders,
        params: KeyParams,
        body: AnalystCommentSchema.meta({
          examples: [{ body: 'Please confirm whether **j.smith** opened the attachment.' }],
        }),
        response: { 201: CommentResultSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 201, () =>
        socApi.comment(request.params.key, request.body, requireAuth(request), request.ip),
      ),
  );

  app.post(
    '/incidents/:key/notes/',
    {
      config: { costLimit: { bucket: 'comment', tenant: 'incident' } },
      schema: {
        operationId: 'analystCreateIncidentNote',
        tags,
        summary: 'Write an internal note of the SOC (Markdown; staff only)',
        description:
          'Visible to staff only, through these routes: no customer answer, list, count, search, PDF, CSV, ' +
          'e-mail, webhook, event or notification ever shows it or that it exists. A note does not change the ' +
          'status nor the time the incident was updated. Idempotent with `Idempotency-Key`.',
        headers: IdempotencyHeaders,
        params: KeyParams,
        body: AnalystNoteCreateSchema.meta({
          examples: [{ body: 'Customer’s admin confirmed by phone; **do not** close before the re-image.' }],
        }),
        response: { 201: AnalystNoteSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 201, () =>
        socApi.createNote(request.params.key, request.body, requireAuth(request), request.ip),
      ),
  );

  app.get(
    '/incidents/:key/notes/',
    {
      schema: {
        operationId: 'analystListIncidentNotes',
        tags,
        summary: 'The internal notes of the SOC on an incident, oldest first (staff only)',
        params: KeyParams,
        querystring: AnalystNotesQuerySchema,
        response: { 200: AnalystNoteListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const page = await socApi.notes(request.params.key, request.query, requireAuth(request));
      return {
        ...page,
        ...pageLinks(request, publicUrl, page.total, request.query.page, request.query.page_size),
      };
    },
  );

  app.post(
    '/incidents/:key/alerts/',
    {
      schema: {
        operationId: 'analystAddAlerts',
        tags,
        summary: 'Add alerts to an incident in bulk (idempotent by alert uuid)',
        description:
          'A uuid the incident already has is reported under `existing`; one stored for another incident ' +
          'or system under `conflicts`; neither is changed.',
        headers: IdempotencyHeaders,
        params: KeyParams,
        body: AnalystAlertsBulkSchema.meta({ examples: [{ alerts: [EXAMPLE_ALERT] }] }),
        response: { 200: AnalystAlertsBulkResultSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 200, () =>
        socApi.addAlerts(request.params.key, request.body, requireAuth(request), request.ip),
      ),
  );

  app.post(
    '/incidents/:key/misconfigs/',
    {
      schema: {
        operationId: 'analystCreateMisconfigs',
        tags,
        summary: 'Create misconfigurations of a (Remediation) incident',
        headers: IdempotencyHeaders,
        params: KeyParams,
        body: AnalystMisconfigsCreateSchema.meta({
          examples: [
            {
              items: [
                {
                  title: 'SMBv1 enabled',
                  description: 'The server accepts SMBv1 connections.',
                  recommendation: 'Disable SMBv1.',
                  severity: 'high',
                  affected_assets: ['srv-files-01'],
                },
              ],
            },
          ],
        }),
        response: { 201: AnalystMisconfigsResultSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 201, async () => ({
        results: await socApi.createMisconfigs(
          request.params.key,
          request.body,
          requireAuth(request),
          request.ip,
        ),
      })),
  );

  app.post(
    '/log_sources/',
    {
      schema: {
        operationId: 'analystCreateLogSource',
        tags,
        summary: 'Register a log source of a system',
        headers: IdempotencyHeaders,
        body: AnalystLogSourceCreateSchema.meta({
          examples: [
            { system: 1, name: 'DC-01 Security log', source_type: 'windows', host: 'dc-01.corp.local' },
          ],
        }),
        response: { 201: AnalystLogSourceSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 201, () =>
        socApi.createLogSource(request.body, requireAuth(request), request.ip),
      ),
  );

  app.post(
    '/log_sources/:id/eps/',
    {
      schema: {
        operationId: 'analystPushEps',
        tags,
        summary: 'Push event counts of a log source (hour buckets; feeds the dashboard’s EPS)',
        description:
          '`add` adds each sample to its hour; `set` replaces the hour’s count (safe to repeat). ' +
          'With `add`, send an `Idempotency-Key` so that a retry does not count twice.',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: EpsSamplesSchema.meta({
          examples: [
            {
              mode: 'add',
              samples: [
                { at: 1795600800000, events: 1_250_000 },
                { at: 1795604400000, events: 980_000 },
              ],
            },
          ],
        }),
        response: { 200: EpsSamplesResultSchema, ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 200, () =>
        socApi.pushEps(request.params.id, request.body, requireAuth(request), request.ip),
      ),
  );

  app.post(
    '/markdown/',
    {
      schema: {
        operationId: 'analystPreviewMarkdown',
        tags,
        summary: 'Render Markdown as the server renders the staff’s texts (the editors’ preview)',
        description: 'Sanitised HTML, exactly what a saved description, document, SOC comment or note shows.',
        body: MarkdownPreviewRequestSchema.meta({
          examples: [{ markdown: '## Steps\n\n1. **Isolate** the host.' }],
        }),
        response: { 200: MarkdownPreviewSchema, ...errors },
      },
    },
    async (request) => ({ html: renderMarkdown(request.body.markdown) }),
  );

  app.post(
    '/documents/:kind/',
    {
      schema: {
        operationId: 'analystPublishDocument',
        tags,
        summary: 'Publish a document: instructions, response_instructions or articles',
        description: 'Give `document` to publish another language variant of an existing document.',
        headers: IdempotencyHeaders,
        params: KindParams,
        body: DocumentCreateSchema.meta({
          examples: [
            {
              title: 'Isolating a workstation',
              description: '## Steps\n\n1. Open the EDR console.\n2. Choose **Isolate**.',
              language: 'en',
              tags: ['edr'],
            },
          ],
        }),
        response: { 201: DocumentCardSchema, ...errors },
      },
    },
    async (request, reply) => {
      const kind = DOCUMENT_KINDS.find((k) => DOCUMENT_KIND_PATHS[k] === request.params.kind) as DocumentKind;
      return idempotency.run(request, reply, 201, () =>
        socApi.publishDocument(kind, request.body, requireUnscoped(request), request.ip),
      );
    },
  );

  app.post(
    '/rules/',
    {
      schema: {
        operationId: 'analystPublishRule',
        tags,
        summary: 'Publish a detection rule (created, or replaced when its rule_id exists)',
        headers: IdempotencyHeaders,
        body: AnalystRuleUpsertSchema.meta({ examples: [EXAMPLE_RULE] }),
        response: { 200: z.object({ created: z.boolean(), rule: RuleSchema }), ...errors },
      },
    },
    async (request, reply) =>
      idempotency.run(request, reply, 200, () =>
        socApi.upsertRule(request.body, requireUnscoped(request), request.ip),
      ),
  );
};
