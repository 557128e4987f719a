/** The health check (`/healthz`, outside the API prefix). */
import type { AppModule } from '../../app-context.ts';
import { healthRoutes } from './health.routes.ts';

export const healthModule: AppModule = async (app, { ctx }) => {
  await app.register(healthRoutes, { database: ctx.database });
};
