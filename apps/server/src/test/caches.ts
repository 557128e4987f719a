import type { Db } from '../db/client.ts';
import type { EventFeed } from '../lib/cache/caches.ts';
import { createCacheRegistry } from '../lib/cache/caches.ts';
import { alertsCache } from '../modules/alerts/index.ts';
import { incidentCaches } from '../modules/incidents/index.ts';
import { rulesCache } from '../modules/rules/index.ts';

/** Every cache of answers the modules register, over one registry (tests of the caches). */
export function createCaches(db: Db, bus: EventFeed) {
  const registry = createCacheRegistry(bus);
  return {
    ...incidentCaches(registry, db),
    alerts: alertsCache(registry, db),
    rules: rulesCache(registry, db),
    registry,
  };
}
export type Caches = ReturnType<typeof createCaches>;

const noBus: EventFeed = { subscribe: () => () => undefined, onLive: () => () => undefined };

/** Every cached answer the modules declare, with the tables it reads (cached-tables.test.ts). */
export const CACHED_ANSWERS = createCaches({} as Db, noBus).registry.answers;
