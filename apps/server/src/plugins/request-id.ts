import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fastifyRequestContext } from '@fastify/request-context';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A request id the proxy may hand on (nginx's `$request_id` is 32 hex digits; other proxies send
 * UUIDs or their own tokens); anything else is replaced, so a client cannot put text of its
 * choosing into the logs and the audit log.
 */
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The request's id (see `genRequestId`), read by the audit and the log lines of the request. */
    requestId: string;
  }
}

/**
 * Fastify's `genReqId`: the proxy's `X-Request-Id` when well-formed, else a random UUID, so that
 * the ids of several instances never meet (Fastify's own are per-process counters).
 */
export function genRequestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (or a parameter past its length) is
 * answered before any hook runs; this answers it as Fastify would, with the request id.
 */
export function frameworkErrorWithId(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const statusCode = error.statusCode ?? 400;
  void reply
    .code(statusCode)
    .header(REQUEST_ID_HEADER, request.id)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: 'Bad Request', code: error.code, message: error.message, statusCode }));
}

/**
 * Returns the request id on every answer (errors and 404s too: the header is set before routing
 * ends) and keeps it in the request's async context for the audit (`lib/audit.ts`) and for log
 * lines written through the app's logger while the request runs (`plugins/logger.ts`).
 */
export const requestIdPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyRequestContext);
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      request.requestContext.set('requestId', request.id);
      done();
    });
  },
  { name: 'request-id' },
);
