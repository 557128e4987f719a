/** The dashboard's figures (analytics, EPS, the MITRE matrix). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { attackSource } from '../../integrations/attack/attack.source.ts';
import { dashboardRoutes } from './dashboard.routes.ts';
import { createDashboardService } from './dashboard.service.ts';

export const dashboardModule: AppModule = async (app, { ctx }) => {
  const dashboard = createDashboardService({
    db: ctx.db,
    attack: attackSource(ctx.config, ctx.db),
  });
  // read (or downloaded) and serialised once before the instance answers ready, rather than by
  // the first dashboard or rules request (the rules read the same source): the variant the
  // dashboard's widget asks for, without descriptions (the full one is for API clients)
  ctx.readiness.add('ATT&CK data', async () => {
    await dashboard.mitreMatrixJson({ description: false });
  });
  await app.register(dashboardRoutes, { prefix: `${API_BASE}/soc`, dashboard });
};
