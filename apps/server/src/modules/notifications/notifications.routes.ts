import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  InboxCountSchema,
  InboxItemParamsSchema,
  InboxListQuerySchema,
  InboxListResponseSchema,
  InboxReadAllSchema,
  InboxReadResponseSchema,
  NotificationPreferencesResponseSchema,
  NotificationPreferencesSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { InboxService } from './inbox.service.ts';
import type { NotificationsService } from './notifications.service.ts';

/** `/api/v0/notifications/…`: the caller's notification preferences and notification centre. */
export const notificationsRoutes: FastifyPluginAsyncZod<{
  notifications: NotificationsService;
  inbox: InboxService;
  config: Config;
}> = async (app, { notifications, inbox, config }) => {
  app.get(
    '/preferences/',
    {
      schema: {
        operationId: 'getNotificationPreferences',
        tags: ['notifications'],
        summary:
          'Which notifications the caller receives by e-mail and in the portal, about what, in which language',
        response: { 200: NotificationPreferencesResponseSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => notifications.getPreferences(requireAuth(request)),
  );

  app.put(
    '/preferences/',
    {
      schema: {
        operationId: 'updateNotificationPreferences',
        tags: ['notifications'],
        summary: 'Save the caller’s notification preferences',
        body: NotificationPreferencesSchema,
        response: {
          200: NotificationPreferencesResponseSchema,
          400: FieldErrorsSchema,
          401: DetailErrorSchema,
        },
      },
    },
    async (request) => notifications.savePreferences(request.body, requireAuth(request), request.ip),
  );

  app.get(
    '/inbox/',
    {
      schema: {
        operationId: 'listInboxItems',
        tags: ['notifications'],
        summary: 'The caller’s notification centre, newest first, by page/page_size (20)',
        description:
          'The events that concern the caller (a new incident on their systems; a status change of, or a ' +
          'comment by someone else on, an incident they registered, are assigned or commented on; their report ' +
          'ready; the SOC’s answer to their request), as they chose in the preferences. `unread=true`: only ' +
          'the unread items. The total is exact up to 10,000 (`total_exact`).',
        querystring: InboxListQuerySchema,
        response: { 200: InboxListResponseSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => {
      const { page, page_size: pageSize, unread } = request.query;
      const result = await inbox.list(requireAuth(request), unread ?? false, page, pageSize);
      return {
        ...result,
        ...pageLinks(request, config.publicUrl, result.total, page, pageSize),
        total_exact: result.total_exact,
      };
    },
  );

  app.get(
    '/inbox/count/',
    {
      schema: {
        operationId: 'countInboxUnread',
        tags: ['notifications'],
        summary: 'How many of the caller’s notifications are unread (the bell), exact up to 10,000',
        response: { 200: InboxCountSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => inbox.count(requireAuth(request)),
  );

  app.post(
    '/inbox/:id/read/',
    {
      schema: {
        operationId: 'markInboxItemRead',
        tags: ['notifications'],
        summary: 'Mark one of the caller’s notifications read; answers the unread count',
        params: InboxItemParamsSchema,
        response: {
          200: InboxReadResponseSchema,
          400: FieldErrorsSchema,
          401: DetailErrorSchema,
          404: DetailErrorSchema,
        },
      },
    },
    async (request) => inbox.markRead(requireAuth(request), request.params.id),
  );

  app.post(
    '/inbox/read_all/',
    {
      schema: {
        operationId: 'markInboxRead',
        tags: ['notifications'],
        summary: 'Mark the caller’s notifications up to `up_to` read; answers the unread count',
        description: 'Items newer than `up_to` (arrived while the caller looked) stay unread.',
        body: InboxReadAllSchema,
        response: { 200: InboxReadResponseSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => inbox.markAllRead(requireAuth(request), request.body.up_to),
  );
};
