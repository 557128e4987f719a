/**
 * The incidents module (list, card, an incident's chat, inbound mail, lookups, mail quarantine,
 * the national centre) and what other modules may use of it; everything else in this folder is
 * its own. The chat (comments.*.ts) lives here because it and the card use each other: the card
 * shows and posts to the chat, the chat loads, locks and moves the incident. It is registered as
 * its own plugin, commentsModule, in its place in app.ts's MODULES.
 */
import { API_BASE } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CacheRegistry } from '../../lib/cache/caches.ts';
import type { AppContext, AppModule } from '../app-module.ts';
import {
  INCIDENT_COUNT_ANSWER,
  INCIDENT_COUNT_VERSION_SOURCES,
  createIncidentCountCache,
} from './count-cache.ts';
import {
  INCIDENT_CARD_ANSWER,
  INCIDENT_COMMENTS_ANSWER,
  INCIDENT_PAGE_ANSWER,
  INCIDENT_RESPONSE_VERSION_SOURCES,
  createIncidentResponseCache,
} from './response-cache.ts';
import { commentsRoutes } from './comments.routes.ts';
import { createCommentsService } from './comments.service.ts';
import { createIncidentCardService } from './incident-card.service.ts';
import { incidentCardRoutes } from './incident-card.routes.ts';
import { incidentsRoutes } from './incidents.routes.ts';
import { CSV_JOB, createIncidentsService } from './incidents.service.ts';
import { GOSSOPKA_JOB } from './gossopka.service.ts';
import { inboundMailRoutes } from './inbound-mail.routes.ts';
import { createInboundMailService } from './inbound-mail.service.ts';
import { lookupsRoutes } from './lookups.routes.ts';
import { mailQuarantineRoutes } from './mail-quarantine.routes.ts';
import { createMailQuarantineService } from './mail-quarantine.service.ts';
import { NOTIFY_JOB, createIncidentNotifier } from './notifications.service.ts';

export { createIncidentsService } from './incidents.service.ts';
export type { IncidentsService } from './incidents.service.ts';
export { createIncidentCardService } from './incident-card.service.ts';
export type { IncidentCardService } from './incident-card.service.ts';
export { GOSSOPKA_JOB, GOSSOPKA_MAX_ATTEMPTS, createGossopkaService } from './gossopka.service.ts';
export type { GossopkaService } from './gossopka.service.ts';
export { NOTIFY_JOB, subjectTag } from './notifications.service.ts';

// contacts' mail (issue 4) is queued by the notifications, from the recorded events, so that
// every writer of incidents triggers it; the services need no listener of their own
const noStatusListener = async () => undefined;

/** The incident card's service over the shared caches and national-centre sender. */
export function incidentCardFor(ctx: AppContext) {
  return createIncidentCardService({
    db: ctx.db,
    onStatus: noStatusListener,
    planGossopka: (incidentId, at) => ctx.gossopka.plan(incidentId, at),
    responses: incidentCaches(ctx.caches, ctx.db).incidents,
  });
}

export { createCommentsService, insertComment, insertNote, notesPage } from './comments.service.ts';
export type { CommentsService, NewComment, StatusListener } from './comments.service.ts';
export type { CommentRow } from './comments.repository.ts';

/** The chat's service over the shared incident caches (the card's routes post through it too). */
export function commentsFor(ctx: AppContext) {
  return createCommentsService({
    db: ctx.db,
    config: ctx.config,
    storage: ctx.storage,
    // contacts' mail follows the recorded events (see the incidents module's notifier)
    onStatus: async () => undefined,
    responses: incidentCaches(ctx.caches, ctx.db).incidents,
  });
}

export const commentsModule: AppModule = async (app, { ctx }) => {
  await app.register(commentsRoutes, {
    prefix: `${API_BASE}/soc/incs`,
    comments: commentsFor(ctx),
    config: ctx.config,
  });
};

export const incidentsModule: AppModule = async (app, { ctx }) => {
  const { db, config, storage, mailer, jobs, gossopka } = ctx;
  const caches = incidentCaches(ctx.caches, db);
  const prefix = `${API_BASE}/soc/incs`;
  const notifier = createIncidentNotifier({ db, config, mailer, jobs });
  const incidents = createIncidentsService({
    countCache: caches.incidentCounts,
    responses: caches.incidents,
    db,
    copyOut: ctx.database.copyOut,
    config,
    storage,
    mailer,
    jobs,
  });
  jobs.handle(CSV_JOB, (payload) => incidents.runCsvJob(payload));
  jobs.handle(NOTIFY_JOB, (payload) => notifier.run(payload));
  jobs.handle(GOSSOPKA_JOB, (payload, job) => gossopka.runSend(payload, job));
  await app.register(incidentsRoutes, { prefix, incidents, config });
  await app.register(incidentCardRoutes, {
    prefix,
    card: incidentCardFor(ctx),
    comments: commentsFor(ctx),
    gossopka,
    db,
    storage,
    config,
  });
  await app.register(inboundMailRoutes, {
    prefix: `${API_BASE}/soc`,
    inbound: createInboundMailService({ db, config, storage, onStatus: noStatusListener }),
    config,
  });
  await app.register(lookupsRoutes, { prefix: `${API_BASE}/soc`, db, config });
  await app.register(mailQuarantineRoutes, {
    prefix: `${API_BASE}/analyst`,
    quarantine: createMailQuarantineService({ db, storage, config }),
    config,
  });
};

// the incident as other modules reach it: tenant scope, loading, locking, status rules
export type { IncidentRecord } from './incident-access.ts';
export { createIncidentAccessRepository, loadIncident, scopeCondition } from './incident-access.ts';
export { statusAfterComment } from './incident-workflow.ts';
export type {
  IncidentRegistration,
  RegisteredIncident,
  RegistrationExtras,
} from './incident-registration.ts';
export { checkCategories, doesNotExist, registerIncident } from './incident-registration.ts';
export { createIncidentWritesRepository } from './incident-writes.repository.ts';
export { presentAttachment } from './attachments.service.ts';
export type { SystemScope } from '../../lib/scope.ts';
export { createIncidentsRepository } from './incidents.repository.ts';
export { incidentConditions } from './incident-filters.repository.ts';
export { countKey } from './incident-totals.repository.ts';

// the caches of incident answers, made once per app by incidentCaches
export type { IncidentCountCache } from './count-cache.ts';
export { countCacheKey } from './count-cache.ts';
export type { IncidentResponseCache } from './response-cache.ts';

/**
 * The caches of incident answers (the list's totals, the card, the list's pages, the chat),
 * made once per app and tied to the event bus; the comments module answers through them too.
 */
export function incidentCaches(caches: CacheRegistry, db: Db) {
  return caches.shared('incidents', () => {
    const incidentCounts = createIncidentCountCache(db);
    const incidents = createIncidentResponseCache(db);
    caches.declare(
      INCIDENT_COUNT_ANSWER,
      INCIDENT_CARD_ANSWER,
      INCIDENT_PAGE_ANSWER,
      INCIDENT_COMMENTS_ANSWER,
    );
    caches.follow(incidentCounts, INCIDENT_COUNT_VERSION_SOURCES);
    caches.follow(incidents, INCIDENT_RESPONSE_VERSION_SOURCES);
    return { incidentCounts, incidents };
  });
}
