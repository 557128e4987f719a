import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, JSON_BODY_LIMIT_BYTES } from '@soc/contracts';
import { createAppContext } from './app-context.ts';
import type { BuildAppOptions } from './app-context.ts';
import {
  CSV_JOB,
  GOSSOPKA_JOB,
  NOTIFY_JOB,
  createIncidentCardService,
  createIncidentNotifier,
  createIncidentsService,
  createInboundMailService,
  createMailQuarantineService,
  inboundMailRoutes,
  incidentCardRoutes,
  incidentsRoutes,
  lookupsRoutes,
  mailQuarantineRoutes,
} from './modules/incidents/index.ts';
import { commentsRoutes, createCommentsService } from './modules/comments/index.ts';
import { documentsRoutes } from './modules/documents/documents.routes.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { rulesRoutes } from './modules/rules/rules.routes.ts';
import { rulesAttack } from './modules/rules/rules.attack.ts';
import { createRulesService } from './modules/rules/rules.service.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { REPORT_BUILD_JOB, createReportsService } from './modules/reports/reports.service.ts';
import { alertsRoutes } from './modules/alerts/alerts.routes.ts';
import { createAlertsService } from './modules/alerts/alerts.service.ts';
import { TASK_NOTIFY_JOB, createTaskNotifier } from './modules/tasks/tasks.notifications.ts';
import { tasksRoutes } from './modules/tasks/tasks.routes.ts';
import { createTasksService } from './modules/tasks/tasks.service.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { createEventsService } from './modules/events/events.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import {
  NOTIFY_EVENT_JOB,
  NOTIFY_USER_JOB,
  createNotificationsService,
} from './modules/notifications/notifications.service.ts';
import { createIdempotency } from './modules/soc-api/idempotency.ts';
import { socApiRoutes } from './modules/soc-api/soc-api.routes.ts';
import { createSocApiService } from './modules/soc-api/soc-api.service.ts';
import { adminModule } from './modules/admin/index.ts';
import { assetsModule } from './modules/assets/index.ts';
import { authModule, authPluginOptions } from './modules/auth/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { dashboardModule } from './modules/dashboard/index.ts';
import { filesModule } from './modules/files/index.ts';
import { healthModule } from './modules/health/index.ts';
import { logSourcesModule } from './modules/logsources/index.ts';
import { misconfigsModule } from './modules/misconfigs/index.ts';
import { portalModule } from './modules/portal/index.ts';
import { tenantsModule } from './modules/tenants/index.ts';
import { tokensModule } from './modules/tokens/index.ts';
import { usersModule } from './modules/users/index.ts';
import { authPlugin } from './plugins/auth.ts';
import { createSerializerCompiler } from './plugins/serializer.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { externalPlugins } from './plugins/external.ts';
import { loggerOptions } from './plugins/logger.ts';
import { setNotFoundHandler } from './plugins/not-found.ts';
import { routeLimitsPlugin } from './plugins/route-limits.ts';
import { webPlugin } from './plugins/web.ts';

export type { BuildAppOptions } from './app-context.ts';

/**
 * Builds the application without listening: plugins in the order external → app → routes
 * (fastify/demo). Tests call it with an in-memory database and use `app.inject`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // tests also encode every response with zod and compare (see plugins/serializer.ts)
  app.setSerializerCompiler(createSerializerCompiler({ verify: config.env === 'test' }));

  // external
  await app.register(externalPlugins, { config });

  // app
  await app.register(errorHandlerPlugin);
  const ctx = await createAppContext(app, options);
  const { storage, mailer, jobs, caches, gossopka } = ctx;
  await app.register(authPlugin, authPluginOptions(ctx));

  await app.register(routeLimitsPlugin, { db: database.db, config: config.routeLimits });

  // services and background work
  // contacts' mail (issue 4) is queued by the notifications below, from the recorded events, so
  // that every writer of incidents triggers it; the services need no listener of their own
  const notifier = createIncidentNotifier({ db: database.db, config, mailer, jobs });
  const noStatusListener = async () => undefined;
  const incidents = createIncidentsService({
    countCache: caches.incidentCounts,
    responses: caches.incidents,
    db: database.db,
    copyOut: database.copyOut,
    config,
    storage,
    mailer,
    jobs,
  });
  jobs.handle(CSV_JOB, (payload) => incidents.runCsvJob(payload));
  jobs.handle(NOTIFY_JOB, (payload) => notifier.run(payload));
  const comments = createCommentsService({
    db: database.db,
    config,
    storage,
    onStatus: noStatusListener,
    responses: caches.incidents,
  });
  const inbound = createInboundMailService({ db: database.db, config, storage, onStatus: noStatusListener });
  jobs.handle(GOSSOPKA_JOB, (payload, job) => gossopka.runSend(payload, job));
  const card = createIncidentCardService({
    db: database.db,
    onStatus: noStatusListener,
    planGossopka: (incidentId, at) => gossopka.plan(incidentId, at),
    responses: caches.incidents,
  });
  const reports = createReportsService({
    db: database.db,
    config,
    storage,
    mailer,
    jobs,
    attachmentMaxBytes: config.reportAttachmentMaxBytes,
  });
  jobs.handle(REPORT_BUILD_JOB, (payload, job) => reports.runBuild(payload, job));
  const taskNotifier = createTaskNotifier({ db: database.db, config, mailer, jobs });
  jobs.handle(TASK_NOTIFY_JOB, (payload) => taskNotifier.run(payload));
  const tasks = createTasksService({
    db: database.db,
    storage,
    onSocReply: taskNotifier.onSocReply,
    storageQuotaBytes: config.storageQuotaBytesPerSystem,
  });
  jobs.addPoller(() => reports.tick());
  const events = createEventsService({
    db: database.db,
    config,
    bus: ctx.bus,
    heartbeatMs: ctx.eventsHeartbeatMs,
  });
  const notifications = createNotificationsService({
    db: database.db,
    config,
    mailer,
    jobs,
    events: events.repo,
  });
  jobs.handle(NOTIFY_EVENT_JOB, (payload) => notifications.runEvent(payload));
  jobs.handle(NOTIFY_USER_JOB, (payload) => notifications.runUser(payload));
  jobs.addPoller(() => notifications.poll());
  // open event streams would hold the server open: end them first, clients reconnect elsewhere
  app.addHook('preClose', async () => events.closeAll());

  // routes
  await app.register(healthModule, { ctx });
  await app.register(authModule, { ctx });
  await app.register(tokensModule, { ctx });
  await app.register(portalModule, { ctx });
  await app.register(adminModule, { ctx });
  await app.register(incidentsRoutes, { prefix: `${API_BASE}/soc/incs`, incidents, config });
  await app.register(incidentCardRoutes, {
    prefix: `${API_BASE}/soc/incs`,
    card,
    comments,
    gossopka,
    db: database.db,
    storage,
    config,
  });
  await app.register(commentsRoutes, { prefix: `${API_BASE}/soc/incs`, comments, config });
  await app.register(usersModule, { ctx });
  await app.register(inboundMailRoutes, { prefix: `${API_BASE}/soc`, inbound, config });
  await app.register(lookupsRoutes, { prefix: `${API_BASE}/soc`, db: database.db, config });
  await app.register(tenantsModule, { ctx });
  await app.register(assetsModule, { ctx });
  await app.register(logSourcesModule, { ctx });
  await app.register(filesModule, { ctx });
  await app.register(alertsRoutes, {
    prefix: API_BASE,
    alerts: createAlertsService({ db: database.db, cache: caches.alerts }),
    config,
  });
  const documents = createDocumentsService({ db: database.db, storage });
  await app.register(documentsRoutes, {
    prefix: `${API_BASE}/soc`,
    documents,
    storage,
    config,
  });
  await app.register(dashboardModule, { ctx });
  await app.register(rulesRoutes, {
    prefix: `${API_BASE}/soc`,
    rules: createRulesService({
      db: database.db,
      attack: rulesAttack(config),
      cache: caches.rules,
      ...(ctx.now ? { now: ctx.now } : {}),
    }),
    config,
  });
  await app.register(reportsRoutes, { prefix: `${API_BASE}/soc`, reports, config });
  await app.register(eventsRoutes, { prefix: `${API_BASE}/events`, events });
  await app.register(notificationsRoutes, { prefix: `${API_BASE}/notifications`, notifications });
  await app.register(auditModule, { ctx });
  const idempotency = createIdempotency(database.db);
  let prunedAt = 0;
  jobs.addPoller(async () => {
    // forgetting day-old idempotency keys needs no precision: every ten minutes is enough
    if (Date.now() - prunedAt < 600_000) return;
    prunedAt = Date.now();
    await idempotency.prune();
  });
  await app.register(mailQuarantineRoutes, {
    prefix: `${API_BASE}/analyst`,
    quarantine: createMailQuarantineService({
      db: database.db,
      storage,
      config,
    }),
    config,
  });
  await app.register(socApiRoutes, {
    prefix: `${API_BASE}/analyst`,
    idempotency,
    socApi: createSocApiService({
      db: database.db,
      card,
      documents,
      // contacts' mail follows the recorded events (see the notifier above)
      onCreated: async () => undefined,
      onStatus: noStatusListener,
      planGossopka: (incidentId, at) => gossopka.plan(incidentId, at),
    }),
  });
  await app.register(tasksRoutes, { prefix: `${API_BASE}/soc`, tasks, config });
  await app.register(misconfigsModule, { ctx });
  if (config.webDist) await app.register(webPlugin, { webDist: config.webDist });
  setNotFoundHandler(app, config.webDist);
  return app;
}
