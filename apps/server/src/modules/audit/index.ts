/** The audit log (`/audit/`, its CSV). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { auditRoutes } from './audit.routes.ts';
import { createAuditService } from './audit.service.ts';

export const auditModule: AppModule = async (app, { ctx }) => {
  await app.register(auditRoutes, {
    prefix: `${API_BASE}/audit`,
    audit: createAuditService(ctx.db),
    config: ctx.config,
  });
};
