/** Tasks between the SOC and a customer (`/soc/tasks/`), with their mail. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { TASK_NOTIFY_JOB, createTaskNotifier } from './tasks.notifications.ts';
import { tasksRoutes } from './tasks.routes.ts';
import { createTasksService } from './tasks.service.ts';

export const tasksModule: AppModule = async (app, { ctx }) => {
  const { config } = ctx;
  const notifier = createTaskNotifier({ db: ctx.db, config, mailer: ctx.mailer, jobs: ctx.jobs });
  ctx.jobs.handle(TASK_NOTIFY_JOB, (payload) => notifier.run(payload));
  const tasks = createTasksService({
    db: ctx.db,
    storage: ctx.storage,
    onSocReply: notifier.onSocReply,
    storageQuotaBytes: config.storageQuotaBytesPerSystem,
  });
  await app.register(tasksRoutes, { prefix: `${API_BASE}/soc`, tasks, config });
};
