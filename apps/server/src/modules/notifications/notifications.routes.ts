import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  NotificationPreferencesResponseSchema,
  NotificationPreferencesSchema,
} from '@soc/contracts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { NotificationsService } from './notifications.service.ts';

/** `/api/v0/notifications/…`: the caller's e-mail notification preferences. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/preferences/',
    {
      schema: {
        operationId: 'getNotificationPreferences',
        tags: ['notifications'],
        summary: 'Which notification e-mails the caller receives, about what, in which language',
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
};
