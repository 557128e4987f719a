import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  WebhookDeliveryListQuerySchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointCreateSchema,
  WebhookEndpointListQuerySchema,
  WebhookEndpointPageSchema,
  WebhookEndpointSchema,
  WebhookEndpointUpdateSchema,
  WebhookEndpointWithSecretSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { WebhooksService } from './webhooks.service.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const DeliveryParams = IdParams.extend({ deliveryId: z.coerce.number().int().positive() });
const errors = { 403: DetailErrorSchema, 404: DetailErrorSchema };

/**
 * `/api/v0/soc/webhooks/…`: outbound webhook endpoints of a system, their secrets (shown once),
 * delivery log, "send again" and "send test event". Customers manage their systems' endpoints,
 * analysts any system's.
 */
export const webhooksRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService; config: Config }> = async (
  app,
  { webhooks, config },
) => {
  const tags = ['webhooks'];

  app.get(
    '/',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        tags,
        summary: 'Webhook endpoints of the caller’s systems (never their secrets)',
        querystring: WebhookEndpointListQuerySchema,
        response: { 200: WebhookEndpointPageSchema, 400: FieldErrorsSchema, 403: DetailErrorSchema },
      },
    },
    async (request) => {
      const { total, results, page, pageSize } = await webhooks.list(requireAuth(request), request.query);
      return { total, ...pageLinks(request, config.publicUrl, total, page, pageSize), results };
    },
  );

  app.post(
    '/',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        tags,
        summary: 'Add a webhook endpoint to a system; the answer shows its signing secret once',
        description:
          'Generic deliveries follow the Standard Webhooks specification (`webhook-id`, ' +
          '`webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the secret). Private, loopback, ' +
          'link-local and metadata addresses are refused unless the administrator allowed them. Every ' +
          'answer, this one too, shows the URL masked (scheme, host and port, then `…`): its path and ' +
          'query are often the secret (a Telegram bot token, a Slack or Teams webhook key).',
        body: WebhookEndpointCreateSchema,
        response: { 201: WebhookEndpointWithSecretSchema, 400: FieldErrorsSchema, 403: DetailErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.create(requireAuth(request), request.body, request.ip)),
  );

  app.get(
    '/:id/',
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        tags,
        summary: 'One webhook endpoint',
        params: IdParams,
        response: { 200: WebhookEndpointSchema, ...errors },
      },
    },
    async (request) => webhooks.get(requireAuth(request), request.params.id),
  );

  app.patch(
    '/:id/',
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags,
        summary: 'Change a webhook endpoint (URL, events, format, on or off)',
        description:
          'Only the fields given change. A `url` equal to the masked one the answers show keeps the URL.',
        params: IdParams,
        body: WebhookEndpointUpdateSchema,
        response: { 200: WebhookEndpointSchema, 400: FieldErrorsSchema, ...errors },
      },
    },
    async (request) => webhooks.update(requireAuth(request), request.params.id, request.body, request.ip),
  );

  app.delete(
    '/:id/',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags,
        summary: 'Delete a webhook endpoint and its delivery log',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await webhooks.remove(requireAuth(request), request.params.id, request.ip);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/:id/rotate_secret/',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'A new signing secret, shown once; the old one still signs for 24 hours',
        params: IdParams,
        response: { 200: WebhookEndpointWithSecretSchema, ...errors },
      },
    },
    async (request) => webhooks.rotate(requireAuth(request), request.params.id, request.ip),
  );

  app.post(
    '/:id/test/',
    {
      config: { costLimit: { bucket: 'webhook_test', tenant: 'webhook' } },
      schema: {
        operationId: 'sendWebhookTestEvent',
        tags,
        summary: 'Queue a `webhook.test` delivery to the endpoint (also when it is off)',
        params: IdParams,
        response: { 202: WebhookDeliverySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await webhooks.sendTest(requireAuth(request), request.params.id, request.ip)),
  );

  app.get(
    '/:id/deliveries/',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The delivery log of an endpoint, newest first',
        params: IdParams,
        querystring: WebhookDeliveryListQuerySchema,
        response: { 200: WebhookDeliveryPageSchema, 400: FieldErrorsSchema, ...errors },
      },
    },
    async (request) => {
      const { total, results, page, pageSize } = await webhooks.deliveries(
        requireAuth(request),
        request.params.id,
        request.query,
      );
      return { total, ...pageLinks(request, config.publicUrl, total, page, pageSize), results };
    },
  );

  app.post(
    '/:id/deliveries/:deliveryId/resend/',
    {
      config: { costLimit: { bucket: 'webhook_test', tenant: 'webhook' } },
      schema: {
        operationId: 'resendWebhookDelivery',
        tags,
        summary: 'Send a delivered message again (same webhook-id and body) as a new delivery',
        params: DeliveryParams,
        response: { 202: WebhookDeliverySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await webhooks.resend(
            requireAuth(request),
            request.params.id,
            request.params.deliveryId,
            request.ip,
          ),
        ),
  );
};
