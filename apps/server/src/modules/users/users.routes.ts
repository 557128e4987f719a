import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FieldErrorsSchema, UserListResponseSchema, UsersQuerySchema } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { UsersService } from './users.service.ts';

/** `/api/v0/soc/users/`: assignee suggestions, limited to the caller's systems. */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService; config: Config }> = async (
  app,
  { users, config },
) => {
  app.get(
    '/users/',
    {
      schema: {
        operationId: 'listUsers',
        tags: ['users'],
        summary: 'Users of the caller’s systems: `is_active`, `system__in`, `search` (trimmed), paged',
        querystring: UsersQuerySchema,
        response: { 200: UserListResponseSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      const page = await users.list(request.query, requireAuth(request));
      return {
        ...page,
        ...pageLinks(request, config.publicUrl, page.total, request.query.page, request.query.page_size),
      };
    },
  );
};
