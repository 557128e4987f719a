/**
 * Mail about events, by each user's preferences (`/notifications/preferences/`), and the
 * notification centre of the portal (`/notifications/inbox/`, issue 40).
 */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { createEventsRepository } from '../events/index.ts';
import { NOTIFY_INBOX_JOB, createInboxService } from './inbox.service.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { NOTIFY_EVENT_JOB, NOTIFY_USER_JOB, createNotificationsService } from './notifications.service.ts';

export const notificationsModule: AppModule = async (app, { ctx }) => {
  const { jobs } = ctx;
  const notifications = createNotificationsService({
    db: ctx.db,
    config: ctx.config,
    mailer: ctx.mailer,
    jobs,
    events: createEventsRepository(ctx.db),
  });
  jobs.handle(NOTIFY_EVENT_JOB, (payload) => notifications.runEvent(payload));
  jobs.handle(NOTIFY_USER_JOB, (payload) => notifications.runUser(payload));
  const inbox = createInboxService({ db: ctx.db, events: createEventsRepository(ctx.db) });
  jobs.handle(NOTIFY_INBOX_JOB, (payload) => inbox.runEvent(payload));
  // recorded events become notification jobs
  jobs.addPoller(() => notifications.poll());
  await app.register(notificationsRoutes, {
    prefix: `${API_BASE}/notifications`,
    notifications,
    inbox,
    config: ctx.config,
  });
};
