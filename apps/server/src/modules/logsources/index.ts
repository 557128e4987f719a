/** Log sources and their event rates (`/soc/logsources/`). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { logSourcesRoutes } from './logsources.routes.ts';
import { createLogSourcesService } from './logsources.service.ts';

export const logSourcesModule: AppModule = async (app, { ctx }) => {
  await app.register(logSourcesRoutes, {
    prefix: `${API_BASE}/soc`,
    logSources: createLogSourcesService(ctx.db),
    config: ctx.config,
  });
};
