import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiTokenCreatedSchema,
  ApiTokenListQuerySchema,
  ApiTokenPageSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  PersonalTokenCreateSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { TokensService } from './tokens.service.ts';

const IdParams = z.object({ id: z.guid() });

/**
 * `/api/v0/auth/tokens/…`: the signed-in user's personal API tokens (read-only, for their own
 * automation). Send one as `Authorization: Bearer socp_…`.
 */
export const tokensRoutes: FastifyPluginAsyncZod<{ tokens: TokensService; config: Config }> = async (
  app,
  { tokens, config },
) => {
  const tags = ['tokens'];
  app.get(
    '/tokens/',
    {
      schema: {
        operationId: 'listPersonalTokens',
        tags,
        summary: 'The caller’s personal API tokens, newest first (never the secrets)',
        querystring: ApiTokenListQuerySchema,
        response: { 200: ApiTokenPageSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const { total, results, page, pageSize } = await tokens.listPersonal(
        requireAuth(request),
        request.query,
      );
      return { total, ...pageLinks(request, config.publicUrl, total, page, pageSize), results };
    },
  );

  app.post(
    '/tokens/',
    {
      // the password check must not become a way to guess the password
      config: { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        operationId: 'createPersonalToken',
        tags,
        summary: 'Create a read-only personal API token; the answer shows the secret once',
        description:
          'Requires the caller’s current password (a wrong one answers 403). The token reads what its ' +
          'owner may read (optionally only some of their systems) and is refused for any change. It ' +
          'expires at `expires_at` (default 90 days, at most 365), and stops working earlier when ' +
          'revoked, when the owner’s password is changed or reset, or when the owner is deactivated.',
        body: PersonalTokenCreateSchema,
        response: { 201: ApiTokenCreatedSchema, 400: FieldErrorsSchema, 403: DetailErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await tokens.createPersonal(requireAuth(request), request.body, request.ip)),
  );

  app.delete(
    '/tokens/:id/',
    {
      schema: {
        operationId: 'revokePersonalToken',
        tags,
        summary: 'Revoke one of the caller’s personal API tokens (at once)',
        params: IdParams,
        response: { 204: z.null(), 403: DetailErrorSchema, 404: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      await tokens.revokePersonal(requireAuth(request), request.params.id, request.ip);
      return reply.status(204).send(null);
    },
  );
};
