/** Outbound webhooks (`/soc/webhooks/`, issue 29 part 2): endpoints, fan-out and delivery jobs. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { createEventsRepository } from '../events/index.ts';
import { createWebhookSender } from './webhook-sender.ts';
import { WEBHOOK_DELIVER_JOB, WEBHOOK_DISABLED_MAIL_JOB } from './webhook-deliveries.repository.ts';
import { webhooksRoutes } from './webhooks.routes.ts';
import { createWebhooksService } from './webhooks.service.ts';

export { WEBHOOK_DELIVER_JOB, WEBHOOK_DISABLED_MAIL_JOB };

export const webhooksModule: AppModule = async (app, { ctx }) => {
  const { jobs } = ctx;
  const sender = createWebhookSender({ allowPrivateCidrs: ctx.config.webhooks.allowPrivateCidrs });
  app.addHook('onClose', async () => sender.close());
  const webhooks = createWebhooksService({
    db: ctx.db,
    config: ctx.config,
    mailer: ctx.mailer,
    sender,
    events: createEventsRepository(ctx.db),
  });
  jobs.handle(WEBHOOK_DELIVER_JOB, (payload) => webhooks.runDelivery(payload));
  jobs.handle(WEBHOOK_DISABLED_MAIL_JOB, (payload) => webhooks.runDisabledMail(payload));
  // recorded events become deliveries
  jobs.addPoller(() => webhooks.poll());
  await app.register(webhooksRoutes, { prefix: `${API_BASE}/soc/webhooks`, webhooks, config: ctx.config });
};
