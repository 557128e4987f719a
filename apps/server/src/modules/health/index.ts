/** The health checks (`/healthz`, `/readyz`, outside the API prefix) and the warm-up `/readyz` waits for. */
import type { AppModule } from '../app-module.ts';
import { healthRoutes } from './health.routes.ts';

export type { Readiness, ReadinessState } from './readiness.ts';
export { createReadiness } from './readiness.ts';

export const healthModule: AppModule = async (app, { ctx }) => {
  await app.register(healthRoutes, {
    database: ctx.database,
    readiness: ctx.readiness,
    storage: ctx.storage,
  });
};
