/** Alerts (of an incident, the list, tags, link templates) and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../../app-context.ts';
import { alertsRoutes } from './alerts.routes.ts';
import { createAlertsService } from './alerts.service.ts';

export { createAlertsService };

export { createAlertsRepository } from './alerts.repository.ts';
export type { AlertsRepository } from './alerts.repository.ts';
// the caches of alert answers, made once by lib/cache/caches.ts
export type { AlertsResponseCache } from './alerts.cache.ts';
export { ALERT_LIST_ANSWER, INCIDENT_ALERTS_ANSWER, createAlertsResponseCache } from './alerts.cache.ts';

export const alertsModule: AppModule = async (app, { ctx }) => {
  await app.register(alertsRoutes, {
    prefix: API_BASE,
    alerts: createAlertsService({ db: ctx.db, cache: ctx.caches.alerts }),
    config: ctx.config,
  });
};
