/** Alerts (of an incident, the list, tags, link templates) and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CacheRegistry } from '../../lib/cache/caches.ts';
import type { AppModule } from '../app-module.ts';
import { ALERT_LIST_ANSWER, INCIDENT_ALERTS_ANSWER, createAlertsResponseCache } from './alerts.cache.ts';
import { alertsRoutes } from './alerts.routes.ts';
import { createAlertsService } from './alerts.service.ts';

export { createAlertsService };

export { createAlertsRepository } from './alerts.repository.ts';
export type { AlertsRepository } from './alerts.repository.ts';
// the caches of alert answers, made once per app by alertsCache
export type { AlertsResponseCache } from './alerts.cache.ts';

/** The caches of alert answers (the list, an incident's alerts), made once per app. */
export function alertsCache(caches: CacheRegistry, db: Db) {
  return caches.shared('alerts', () => {
    caches.declare(INCIDENT_ALERTS_ANSWER, ALERT_LIST_ANSWER);
    return createAlertsResponseCache(db);
  });
}

export const alertsModule: AppModule = async (app, { ctx }) => {
  await app.register(alertsRoutes, {
    prefix: API_BASE,
    alerts: createAlertsService({ db: ctx.db, cache: alertsCache(ctx.caches, ctx.db) }),
    config: ctx.config,
  });
};
