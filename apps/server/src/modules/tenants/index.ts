/** Customers and their systems as the SOC sees them (`/soc/systems/`). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { tenantsRoutes } from './tenants.routes.ts';
import { createTenantsService } from './tenants.service.ts';

export const tenantsModule: AppModule = async (app, { ctx }) => {
  await app.register(tenantsRoutes, {
    prefix: `${API_BASE}/soc`,
    tenants: createTenantsService(ctx.db),
    config: ctx.config,
  });
};
