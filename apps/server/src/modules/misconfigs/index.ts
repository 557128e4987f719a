/** Misconfigurations found on customers' systems, and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { misconfigsRoutes } from './misconfigs.routes.ts';
import { createMisconfigsService } from './misconfigs.service.ts';

export { createMisconfigsService } from './misconfigs.service.ts';
export { presentMisconfig } from './misconfigs.presenter.ts';
export { createMisconfigsRepository } from './misconfigs.repository.ts';

export const misconfigsModule: AppModule = async (app, { ctx }) => {
  await app.register(misconfigsRoutes, {
    prefix: `${API_BASE}/soc`,
    misconfigs: createMisconfigsService({ db: ctx.db }),
    config: ctx.config,
  });
};
