/** What the web app reads before signing in (`/portal/config/`). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { portalRoutes } from './portal.routes.ts';

export const portalModule: AppModule = async (app, { ctx }) => {
  await app.register(portalRoutes, { prefix: `${API_BASE}/portal`, config: ctx.config, db: ctx.db });
};
