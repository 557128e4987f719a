import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  MailQuarantineDetailSchema,
  MailQuarantinePageSchema,
  MailQuarantineQuerySchema,
  MailQuarantineReleasedSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireRole } from '../../lib/request-auth.ts';
import type { MailQuarantineService } from './mail-quarantine.service.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const errors = {
  400: FieldErrorsSchema,
  401: DetailErrorSchema,
  403: DetailErrorSchema,
  404: DetailErrorSchema,
};

/**
 * `/api/v0/analyst/mail_quarantine/…` (roles analyst and admin; customers get 403): inbound
 * mail from senders the portal cannot vouch for, kept for review instead of being posted.
 */
export const mailQuarantineRoutes: FastifyPluginAsyncZod<{
  quarantine: MailQuarantineService;
  config: Config;
}> = async (app, { quarantine, config }) => {
  // before validation, so that customers learn nothing from field errors
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'analyst', 'admin');
  });
  const tags = ['analyst'];

  app.get(
    '/mail_quarantine/',
    {
      schema: {
        operationId: 'listQuarantinedMail',
        tags,
        summary: 'Quarantined inbound mail, newest first (filters: incident key, sender)',
        querystring: MailQuarantineQuerySchema,
        response: { 200: MailQuarantinePageSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await quarantine.list(q, requireRole(request, 'analyst', 'admin'));
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );
  app.get(
    '/mail_quarantine/:id/',
    {
      schema: {
        operationId: 'getQuarantinedMail',
        tags,
        summary: 'A quarantined mail with its text',
        params: IdParams,
        response: { 200: MailQuarantineDetailSchema, ...errors },
      },
    },
    async (request) => quarantine.one(request.params.id, requireRole(request, 'analyst', 'admin')),
  );
  app.post(
    '/mail_quarantine/:id/release/',
    {
      schema: {
        operationId: 'releaseQuarantinedMail',
        tags,
        summary: 'Post a quarantined mail on its incident as an outside, unverified comment',
        params: IdParams,
        response: { 201: MailQuarantineReleasedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await quarantine.release(request.params.id, requireRole(request, 'analyst', 'admin'), request.ip),
        ),
  );
  app.delete(
    '/mail_quarantine/:id/',
    {
      schema: {
        operationId: 'deleteQuarantinedMail',
        tags,
        summary: 'Delete a quarantined mail',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await quarantine.remove(request.params.id, requireRole(request, 'analyst', 'admin'), request.ip);
      return reply.status(204).send(null);
    },
  );
};
