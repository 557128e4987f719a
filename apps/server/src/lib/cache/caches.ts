import type { Db } from '../../db/client.ts';
import type { AlertsResponseCache } from '../../modules/alerts/index.ts';
import {
  ALERT_LIST_ANSWER,
  INCIDENT_ALERTS_ANSWER,
  createAlertsResponseCache,
} from '../../modules/alerts/index.ts';
import type { EventBus } from '../../modules/events/index.ts';
import type { IncidentCountCache, IncidentResponseCache } from '../../modules/incidents/index.ts';
import {
  INCIDENT_CARD_ANSWER,
  INCIDENT_COMMENTS_ANSWER,
  INCIDENT_COUNT_ANSWER,
  INCIDENT_COUNT_VERSION_SOURCES,
  INCIDENT_PAGE_ANSWER,
  INCIDENT_RESPONSE_VERSION_SOURCES,
  createIncidentCountCache,
  createIncidentResponseCache,
} from '../../modules/incidents/index.ts';
import type { RulesResponseCache } from '../../modules/rules/index.ts';
import {
  RULE_COVERAGE_ANSWER,
  RULE_PAGE_ANSWER,
  createRulesResponseCache,
} from '../../modules/rules/index.ts';
import type { CachedAnswer, VersionSources } from './cached-answer.ts';

/** Every cache of the server's answers; services take the ones they answer through. */
export interface Caches {
  incidentCounts: IncidentCountCache;
  incidents: IncidentResponseCache;
  alerts: AlertsResponseCache;
  rules: RulesResponseCache;
}

/** Every cached answer with the tables it reads (checked by cached-tables.test.ts). */
export const CACHED_ANSWERS: readonly CachedAnswer[] = [
  INCIDENT_COUNT_ANSWER,
  INCIDENT_CARD_ANSWER,
  INCIDENT_PAGE_ANSWER,
  INCIDENT_COMMENTS_ANSWER,
  INCIDENT_ALERTS_ANSWER,
  ALERT_LIST_ANSWER,
  RULE_PAGE_ANSWER,
  RULE_COVERAGE_ANSWER,
];

/** Whether an event of `type` moves a version that reads `sources`. */
export const readsEvent = (sources: VersionSources, type: string) =>
  sources.events === '*' || sources.events.includes(type);

/**
 * Creates every cache and ties those whose versions read events ids to the event bus: each event
 * they read empties them, as one older than a version already seen (writers committing out of
 * order) would not move it, and they keep nothing while the bus may miss events. The caches
 * versioned by counters alone (alerts, rules) need no channel: a later read of a counter raised
 * under its row's lock never sees an earlier value.
 */
export function createCaches(db: Db, bus: Pick<EventBus, 'subscribe' | 'onLive'>): Caches {
  const incidentCounts = createIncidentCountCache(db);
  const incidents = createIncidentResponseCache(db);
  const followers = [
    { cache: incidentCounts, sources: INCIDENT_COUNT_VERSION_SOURCES },
    { cache: incidents, sources: INCIDENT_RESPONSE_VERSION_SOURCES },
  ];
  // any committed change (routes, analyst API, jobs, other instances) reaches every instance
  bus.subscribe((event) => {
    for (const { cache, sources } of followers) if (readsEvent(sources, event.type)) cache.invalidate();
  });
  bus.onLive((live) => {
    for (const { cache } of followers) cache.setLive(live);
  });
  return {
    incidentCounts,
    incidents,
    alerts: createAlertsResponseCache(db),
    rules: createRulesResponseCache(db),
  };
}
