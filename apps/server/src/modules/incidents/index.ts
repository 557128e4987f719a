/**
 * What other modules may use of the incidents module; everything else in this folder is its own.
 * Comments import from here and the incident card imports comments: only functions cross that
 * cycle, never a value read while the modules load.
 */
export { incidentsRoutes } from './incidents.routes.ts';
export { CSV_JOB, createIncidentsService } from './incidents.service.ts';
export type { IncidentsService } from './incidents.service.ts';
export { incidentCardRoutes } from './incident-card.routes.ts';
export { createIncidentCardService } from './incident-card.service.ts';
export type { IncidentCardService } from './incident-card.service.ts';
export { lookupsRoutes } from './lookups.routes.ts';
export { GOSSOPKA_JOB, GOSSOPKA_MAX_ATTEMPTS, createGossopkaService } from './gossopka.service.ts';
export { inboundMailRoutes } from './inbound-mail.routes.ts';
export { createInboundMailService } from './inbound-mail.service.ts';
export { mailQuarantineRoutes } from './mail-quarantine.routes.ts';
export { createMailQuarantineService } from './mail-quarantine.service.ts';
export { NOTIFY_JOB, createIncidentNotifier, subjectTag } from './notifications.service.ts';

// the incident as other modules reach it: tenant scope, loading, locking, status rules
export type { IncidentRecord } from './incident-access.ts';
export { loadIncident, lockIncident, scopeCondition } from './incident-access.ts';
export { statusAfterComment } from './incident-workflow.ts';
export type {
  IncidentRegistration,
  RegisteredIncident,
  RegistrationExtras,
} from './incident-registration.ts';
export { checkCategories, doesNotExist, registerIncident } from './incident-registration.ts';
export { systemInScope, touchIncident } from './incident-writes.repository.ts';
export { presentAttachment } from './attachments.service.ts';
export type { SystemScope } from '../../lib/scope.ts';
export { createIncidentsRepository } from './incidents.repository.ts';
export { incidentConditions } from './incident-filters.ts';
export { countKey } from './incident-totals.ts';

// the caches of incident answers, made once by lib/cache/caches.ts
export type { IncidentCountCache } from './count-cache.ts';
export {
  INCIDENT_COUNT_ANSWER,
  INCIDENT_COUNT_VERSION_SOURCES,
  countCacheKey,
  createIncidentCountCache,
} from './count-cache.ts';
export type { IncidentResponseCache } from './response-cache.ts';
export {
  INCIDENT_CARD_ANSWER,
  INCIDENT_COMMENTS_ANSWER,
  INCIDENT_PAGE_ANSWER,
  INCIDENT_RESPONSE_VERSION_SOURCES,
  createIncidentResponseCache,
} from './response-cache.ts';
