import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminUserListQuerySchema,
  AdminUserPageSchema,
  AdminUserSchema,
  UserInviteSchema,
  UserInvitedSchema,
  UserUpdateSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { IdParams, caller, errors } from './admin.http.ts';
import type { AdminService } from './admin.service.ts';

/** `/api/v0/admin/users/…`: invitations, changes, deactivation, password and second-factor resets. */
export const adminUserRoutes: FastifyPluginAsyncZod<{ admin: AdminService; config: Config }> = async (
  app,
  { admin, config },
) => {
  const tags = ['admin'];

  app.get(
    '/users/',
    {
      schema: {
        operationId: 'adminListUsers',
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
        operationId: 'adminInviteUser',
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
    {
      schema: {
        operationId: 'adminGetUser',
        tags,
        summary: 'A user',
        params: IdParams,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => admin.user(request.params.id),
  );
  app.patch(
    '/users/:id/',
    {
      schema: {
        operationId: 'adminUpdateUser',
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
        operationId: 'adminDeactivateUser',
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
        operationId: 'adminResetPassword',
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
        operationId: 'adminResetMfa',
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
};
