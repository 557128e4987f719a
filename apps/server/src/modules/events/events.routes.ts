import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DetailErrorSchema, EventsStreamQuerySchema, EventsTicketSchema } from '@soc/contracts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { EventsService } from './events.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

/** `/api/v0/events/…`: live updates as server-sent events. */
export const eventsRoutes: FastifyPluginAsyncZod<{ events: EventsService }> = async (app, { events }) => {
  app.post(
    '/ticket/',
    {
      schema: {
        operationId: 'createEventsTicket',
        tags: ['events'],
        summary: 'A short-lived ticket that opens one event stream',
        description:
          'EventSource cannot send an Authorization header: the client asks for a ticket with its ' +
          'access token and opens `GET /api/v0/events/?ticket=…` within the ticket’s lifetime. The ticket ' +
          'opens one stream once (a second use is 401 on every instance) and works for nothing else; the ' +
          'access token never appears in a URL. API tokens get 403.',
        response: { 200: EventsTicketSchema, 401: DetailErrorSchema, 403: DetailErrorSchema },
      },
    },
    async (request) => events.ticket(requireAuth(request)),
  );

  app.get(
    '/',
    {
      // authenticated by the ticket, not by a header
      config: { public: true },
      schema: {
        tags: ['events'],
        operationId: 'streamEvents',
        summary: 'Live updates (text/event-stream) of the caller’s incidents, comments and reports',
        description:
          'Events `incident.created`, `incident.updated`, `comment.created`, `report.ready`; each `data` is a ' +
          'JSON LiveEvent. A comment line every 20 s keeps the stream open. A client that reconnects with ' +
          '`Last-Event-ID` (or `last_event_id`) first receives what it missed in the last 15 minutes. A user ' +
          'has at most 5 open streams per server instance: opening another ends the oldest.',
        security: [],
        querystring: EventsStreamQuerySchema,
        response: {
          200: fileAnswer('text/event-stream', 'Server-sent events until the client disconnects'),
          401: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const auth = await events.authenticate(request.query.ticket);
      const header = request.headers['last-event-id'];
      const fromHeader = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // reverse proxies (nginx) must pass events through at once
        'x-accel-buffering': 'no',
      });
      reply.raw.flushHeaders();
      await events.stream(reply.raw, auth, fromHeader ?? request.query.last_event_id);
    },
  );
};
