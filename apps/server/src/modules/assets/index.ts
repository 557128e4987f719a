/** The asset inventory (`/cmdb/assets/`). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { assetsRoutes } from './assets.routes.ts';
import { createAssetsService } from './assets.service.ts';

export const assetsModule: AppModule = async (app, { ctx }) => {
  await app.register(assetsRoutes, {
    prefix: `${API_BASE}/cmdb`,
    assets: createAssetsService(ctx.db),
    config: ctx.config,
  });
};
