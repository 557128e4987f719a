import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AdminContactCreateSchema,
  AdminContactUpdateSchema,
  AdminContractCreateSchema,
  AdminContractUpdateSchema,
  AdminPageQuerySchema,
  AdminServiceCreateSchema,
  AdminServiceUpdateSchema,
  AdminSystemCreateSchema,
  AdminSystemPageSchema,
  AdminSystemSchema,
  AdminSystemUpdateSchema,
  AdminUserListQuerySchema,
  AdminUserPageSchema,
  AdminUserSchema,
  ApiTokenCreatedSchema,
  ApiTokenListQuerySchema,
  ApiTokenPageSchema,
  BrandingSchema,
  BrandingUpdateSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  ServiceTokenCreateSchema,
  SystemMailDomainsSchema,
  UserInviteSchema,
  UserInvitedSchema,
  UserUpdateSchema,
} from '@soc/contracts';
import type { Config } from '../../config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireRole } from '../../plugins/auth.ts';
import { requireUnscoped } from '../../lib/token-scope.ts';
import type { TokensService } from '../tokens/tokens.service.ts';
import type { AdminCaller, AdminService } from './admin.service.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const UuidParams = z.object({ id: z.guid() });
const errors = {
  400: FieldErrorsSchema,
  401: DetailErrorSchema,
  403: DetailErrorSchema,
  404: DetailErrorSchema,
};
const noContent = { 204: z.null(), ...errors };

const caller = (request: FastifyRequest): AdminCaller => {
  const auth = requireRole(request, 'admin');
  return { userId: auth.userId, tokenId: auth.tokenId ?? null, ip: request.ip };
};

/**
 * `/api/v0/admin/…` (role admin): systems, contracts, services with SLA, contacts, users,
 * service tokens and branding. `npm run admin` offers the same operations from a shell.
 */
export const adminRoutes: FastifyPluginAsyncZod<{
  admin: AdminService;
  tokens: TokensService;
  config: Config;
}> = async (app, { admin, tokens, config }) => {
  // before validation, so that a non-administrator learns nothing from field errors
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'admin');
    // administration spans every system: a token limited to some systems would reach the others here
    requireUnscoped(request);
  });
  const tags = ['admin'];

  app.get(
    '/systems/',
    {
      schema: {
        tags,
        summary: 'Every protected system (search by code or name)',
        querystring: AdminPageQuerySchema,
        response: { 200: AdminSystemPageSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await admin.listSystems(q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );
  app.post(
    '/systems/',
    {
      schema: {
        tags,
        summary: 'Create a protected system',
        body: AdminSystemCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await admin.createSystem(request.body, caller(request))),
  );
  app.get(
    '/systems/:id/',
    {
      schema: {
        tags,
        summary: 'A system with its contracts, services (SLA) and contacts',
        params: IdParams,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.system(request.params.id),
  );
  app.patch(
    '/systems/:id/',
    {
      schema: {
        tags,
        summary: 'Change a system (code, name, status, people)',
        params: IdParams,
        body: AdminSystemUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateSystem(request.params.id, request.body, caller(request)),
  );

  app.get(
    '/systems/:id/mail_domains/',
    {
      schema: {
        tags,
        summary: 'Mail domains allowed as report recipients of a system (besides its users)',
        params: IdParams,
        response: { 200: SystemMailDomainsSchema, ...errors },
      },
    },
    async (request) => admin.mailDomains(request.params.id),
  );
  app.put(
    '/systems/:id/mail_domains/',
    {
      schema: {
        tags,
        summary: 'Replace the mail domains allowed as report recipients of a system',
        params: IdParams,
        body: SystemMailDomainsSchema,
        response: { 200: SystemMailDomainsSchema, ...errors },
      },
    },
    async (request) => admin.setMailDomains(request.params.id, request.body, caller(request)),
  );
  app.post(
    '/systems/:id/contracts/',
    {
      schema: {
        tags,
        summary: 'Add a contract to a system',
        params: IdParams,
        body: AdminContractCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await admin.addContract(request.params.id, request.body, caller(request))),
  );
  app.patch(
    '/contracts/:id/',
    {
      schema: {
        tags,
        summary: 'Change a contract',
        params: IdParams,
        body: AdminContractUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateContract(request.params.id, request.body, caller(request)),
  );
  app.delete(
    '/contracts/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a contract (its services stay, without contract)',
        params: IdParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await admin.deleteContract(request.params.id, caller(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/systems/:id/services/',
    {
      schema: {
        tags,
        summary: 'Add a service (with contracted EPS and SLA rows) to a system',
        params: IdParams,
        body: AdminServiceCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await admin.addService(request.params.id, request.body, caller(request))),
  );
  app.patch(
    '/services/:id/',
    {
      schema: {
        tags,
        summary: 'Change a service; `sla` replaces its SLA rows',
        params: IdParams,
        body: AdminServiceUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateService(request.params.id, request.body, caller(request)),
  );
  app.delete(
    '/services/:id/',
    { schema: { tags, summary: 'Delete a service', params: IdParams, response: noContent } },
    async (request, reply) => {
      await admin.deleteService(request.params.id, caller(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/systems/:id/contacts/',
    {
      schema: {
        tags,
        summary: 'Add a customer contact (receives notifications in its language)',
        params: IdParams,
        body: AdminContactCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await admin.addContact(request.params.id, request.body, caller(request))),
  );
  app.patch(
    '/contacts/:id/',
    {
      schema: {
        tags,
        summary: 'Change a contact',
        params: IdParams,
        body: AdminContactUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateContact(request.params.id, request.body, caller(request)),
  );
  app.delete(
    '/contacts/:id/',
    { schema: { tags, summary: 'Delete a contact', params: IdParams, response: noContent } },
    async (request, reply) => {
      await admin.deleteContact(request.params.id, caller(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/users/',
    {
      schema: {
        tags,
        summary: 'Users (search, role, active, system)',
        querystring: AdminUserListQuerySchema,
        response: { 200: AdminUserPageSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await admin.listUsers(q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );
  app.post(
    '/users/',
    {
      schema: {
        tags,
        summary: 'Invite a user: creates the account and answers a one-time password (shown once)',
        body: UserInviteSchema,
        response: { 201: UserInvitedSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await admin.inviteUser(request.body, caller(request))),
  );
  app.get(
    '/users/:id/',
    { schema: { tags, summary: 'A user', params: IdParams, response: { 200: AdminUserSchema, ...errors } } },
    async (request) => admin.user(request.params.id),
  );
  app.patch(
    '/users/:id/',
    {
      schema: {
        tags,
        summary: 'Change a user: names, e-mail, role, language, systems (replaced), SMS phone, active',
        description: '`is_active: false` ends the user’s sessions and stops their API tokens at once.',
        params: IdParams,
        body: UserUpdateSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => admin.updateUser(request.params.id, request.body, caller(request)),
  );
  app.post(
    '/users/:id/deactivate/',
    {
      schema: {
        tags,
        summary: 'Deactivate a user: sessions and API tokens stop at once',
        params: IdParams,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => admin.deactivateUser(request.params.id, caller(request)),
  );
  app.post(
    '/users/:id/reset_password/',
    {
      schema: {
        tags,
        summary: 'Give a user a new temporary password (shown once; 72 hours; changed at first sign-in)',
        description:
          'Every session of the user ends; until the user changes it, only the password change works.',
        params: IdParams,
        response: { 200: UserInvitedSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return admin.resetPassword(request.params.id, caller(request));
    },
  );
  app.post(
    '/users/:id/reset_mfa/',
    {
      schema: {
        tags,
        summary:
          'Reset the second factor: removes the authenticator app (and with `remove_phone`, the SMS phone)',
        params: IdParams,
        body: z.strictObject({ remove_phone: z.boolean().default(false) }).optional(),
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) =>
      admin.resetSecondFactor(request.params.id, caller(request), {
        removePhone: request.body?.remove_phone ?? false,
      }),
  );

  app.get(
    '/service_tokens/',
    {
      schema: {
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
    { schema: { tags, summary: 'Revoke an API token (at once)', params: UuidParams, response: noContent } },
    async (request, reply) => {
      await tokens.revokeAny(caller(request), request.params.id, request.ip);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/branding/',
    {
      schema: {
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
        tags,
        summary: 'Override branding values (null returns a value to its environment default)',
        body: BrandingUpdateSchema,
        response: { 200: BrandingSchema, ...errors },
      },
    },
    async (request) => admin.updateBranding(request.body, caller(request)),
  );
};
