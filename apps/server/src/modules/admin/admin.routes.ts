import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiTokenCreatedSchema,
  ApiTokenListQuerySchema,
  ApiTokenPageSchema,
  BrandingSchema,
  BrandingUpdateSchema,
  ServiceTokenCreateSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireRole } from '../../lib/request-auth.ts';
import { requireUnscoped } from '../../lib/token-scope.ts';
import type { TokensService } from '../tokens/index.ts';
import { UuidParams, caller, errors, noContent } from './admin.http.ts';
import type { AdminService } from './admin.service.ts';
import { adminSystemRoutes } from './systems.routes.ts';
import { adminRuleRoutes } from './rules.routes.ts';
import type { AdminRulesService } from './rules.service.ts';
import { adminUserRoutes } from './users.routes.ts';

/**
 * `/api/v0/admin/…` (role admin): systems, contracts, services with SLA, contacts, users,
 * service tokens, branding and the Sigma rule import. `npm run admin` offers the same operations from a shell.
 */
export const adminRoutes: FastifyPluginAsyncZod<{
  admin: AdminService;
  tokens: TokensService;
  rules: AdminRulesService;
  config: Config;
}> = async (app, { admin, tokens, rules, config }) => {
  // before validation, so that a non-administrator learns nothing from field errors
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'admin');
    // administration spans every system: a token limited to some systems would reach the others here
    requireUnscoped(request);
  });
  const tags = ['admin'];

  // awaited, so that the routes keep their order (and the check above covers them)
  await app.register(adminSystemRoutes, { admin, config });
  await app.register(adminUserRoutes, { admin, config });
  await app.register(adminRuleRoutes, { rules });

  app.get(
    '/service_tokens/',
    {
      schema: {
        operationId: 'adminListTokens',
        tags,
        summary: 'Every API token (service and personal), newest first',
        querystring: ApiTokenListQuerySchema.extend({
          user_id: z.coerce.number().int().positive().optional(),
        }),
        response: { 200: ApiTokenPageSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results, page, pageSize } = await tokens.listAll(q);
      return { total, ...pageLinks(request, config.publicUrl, total, page, pageSize), results };
    },
  );
  app.post(
    '/service_tokens/',
    {
      schema: {
        operationId: 'adminCreateServiceToken',
        tags,
        summary: 'Issue a service token for an integration; the answer shows the secret once',
        description:
          'The token acts as `user_id` with `role` (at most the user’s) on `systems` (empty: all). ' +
          'Send it as `Authorization: Bearer socp_…`. It stops when revoked, expired or the user is deactivated.',
        body: ServiceTokenCreateSchema,
        response: { 201: ApiTokenCreatedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await tokens.createService(caller(request), request.body, request.ip)),
  );
  app.delete(
    '/service_tokens/:id/',
    {
      schema: {
        operationId: 'adminRevokeToken',
        tags,
        summary: 'Revoke an API token (at once)',
        params: UuidParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await tokens.revokeAny(caller(request), request.params.id, request.ip);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/branding/',
    {
      schema: {
        operationId: 'adminGetBranding',
        tags,
        summary: 'Branding in force and which values override the environment',
        response: { 200: BrandingSchema, ...errors },
      },
    },
    async () => admin.branding(),
  );
  app.put(
    '/branding/',
    {
      schema: {
        operationId: 'adminUpdateBranding',
        tags,
        summary: 'Override branding values (null returns a value to its environment default)',
        body: BrandingUpdateSchema,
        response: { 200: BrandingSchema, ...errors },
      },
    },
    async (request) => admin.updateBranding(request.body, caller(request)),
  );
};
