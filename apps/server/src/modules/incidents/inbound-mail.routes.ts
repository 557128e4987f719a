import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DetailErrorSchema, FieldErrorsSchema, InboundMailResultSchema } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { HttpError } from '../../lib/http-errors.ts';
import type { InboundMailService } from './inbound-mail.service.ts';
import { INBOUND_MAIL_MAX_BYTES } from './inbound-mail.service.ts';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `/api/v0/soc/inbound_mail/`: the mail gateway (an MTA pipe or webhook) posts each message
 * addressed to INBOUND_MAIL_ADDRESS as raw MIME (`message/rfc822`) with the shared secret in
 * `X-Inbound-Token`.
 */
export const inboundMailRoutes: FastifyPluginAsyncZod<{
  inbound: InboundMailService;
  config: Config;
}> = async (app, { inbound, config }) => {
  app.addContentTypeParser(
    'message/rfc822',
    { parseAs: 'buffer', bodyLimit: INBOUND_MAIL_MAX_BYTES },
    (_req, body, done) => done(null, body),
  );

  app.post(
    '/inbound_mail/',
    {
      config: { public: true },
      bodyLimit: INBOUND_MAIL_MAX_BYTES,
      schema: {
        operationId: 'receiveInboundMail',
        tags: ['comments'],
        summary:
          'Mail gateway: a reply to a notification (raw MIME) becomes a comment, or waits in the analysts’ quarantine (202)',
        consumes: ['message/rfc822'],
        security: [],
        response: {
          200: InboundMailResultSchema,
          201: InboundMailResultSchema,
          202: InboundMailResultSchema,
          400: FieldErrorsSchema,
          401: DetailErrorSchema,
          404: DetailErrorSchema,
          503: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const expected = config.inboundMail.token;
      if (!expected) throw new HttpError(503, 'Inbound mail is not configured (INBOUND_MAIL_TOKEN).');
      const given = request.headers['x-inbound-token'];
      if (typeof given !== 'string' || !sameSecret(given, expected)) {
        throw new HttpError(401, 'Invalid inbound mail token.');
      }
      if (!Buffer.isBuffer(request.body)) throw new HttpError(415, 'Expected message/rfc822.');
      const { result, created, quarantined } = await inbound.receive(request.body, request.ip);
      return reply.status(!created ? 200 : quarantined ? 202 : 201).send(result);
    },
  );
};
