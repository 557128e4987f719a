import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  API_BASE,
  ATTACHMENTS_MAX_FILES,
  ATTACHMENT_MAX_BYTES,
  JSON_BODY_LIMIT_BYTES,
  PRODUCT_VERSION,
} from '@soc/contracts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { auditedMailer, createMailer } from './integrations/mail/mailer.ts';
import { createRateLimitStore } from './integrations/redis/rate-limit-store.ts';
import type { RateLimitStoreOptions } from './integrations/redis/rate-limit-store.ts';
import { createSmsGateway } from './integrations/sms/sms-gateway.ts';
import type { SmsGateway } from './integrations/sms/sms-gateway.ts';
import { smsOutboxRoutes } from './modules/auth/sms-outbox.routes.ts';
import { createOidcProviders } from './integrations/oidc/oidc-providers.ts';
import { externalLoginRoutes } from './modules/auth/external-login.routes.ts';
import { createExternalLoginService } from './modules/auth/external-login.service.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import { FileStorage } from './integrations/storage/file-storage.ts';
import { createJobRunner } from './jobs/runner.ts';
import type { JobRunner } from './jobs/runner.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import {
  CSV_JOB,
  GOSSOPKA_JOB,
  NOTIFY_JOB,
  createGossopkaService,
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
import { createUsersService, usersRoutes } from './modules/users/index.ts';
import { tenantsRoutes } from './modules/tenants/tenants.routes.ts';
import { createTenantsService } from './modules/tenants/tenants.service.ts';
import { assetsRoutes } from './modules/assets/assets.routes.ts';
import { createAssetsService } from './modules/assets/assets.service.ts';
import { logSourcesRoutes } from './modules/logsources/logsources.routes.ts';
import { createLogSourcesService } from './modules/logsources/logsources.service.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { createFilesService } from './modules/files/files.service.ts';
import { documentsRoutes } from './modules/documents/documents.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { rulesRoutes } from './modules/rules/rules.routes.ts';
import { rulesAttack } from './modules/rules/rules.attack.ts';
import { createRulesService } from './modules/rules/rules.service.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { REPORT_BUILD_JOB, createReportsService } from './modules/reports/reports.service.ts';
import type { AuthServiceOptions } from './modules/auth/auth.service.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { alertsRoutes } from './modules/alerts/alerts.routes.ts';
import { createAlertsService } from './modules/alerts/alerts.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { misconfigsRoutes } from './modules/misconfigs/misconfigs.routes.ts';
import { createMisconfigsService } from './modules/misconfigs/misconfigs.service.ts';
import { TASK_NOTIFY_JOB, createTaskNotifier } from './modules/tasks/tasks.notifications.ts';
import { tasksRoutes } from './modules/tasks/tasks.routes.ts';
import { createTasksService } from './modules/tasks/tasks.service.ts';
import { portalRoutes } from './modules/portal/portal.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createPgEventBus } from './modules/events/event-bus.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { createEventsService } from './modules/events/events.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { createSecurityNoticeJob } from './modules/auth/security-notice.ts';
import { SECURITY_NOTICE_JOB } from './lib/audit.ts';
import { createCaches } from './lib/cache/caches.ts';
import {
  NOTIFY_EVENT_JOB,
  NOTIFY_USER_JOB,
  createNotificationsService,
} from './modules/notifications/notifications.service.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createIdempotency } from './modules/soc-api/idempotency.ts';
import { socApiRoutes } from './modules/soc-api/soc-api.routes.ts';
import { createSocApiService } from './modules/soc-api/soc-api.service.ts';
import { tokensRoutes } from './modules/tokens/tokens.routes.ts';
import { createTokensService } from './modules/tokens/tokens.service.ts';
import { authPlugin, declarePublic } from './plugins/auth.ts';
import { createAuthCache, listenAuthChanges } from './plugins/auth-cache.ts';
import { createSerializerCompiler } from './plugins/serializer.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { routeLimitsPlugin } from './plugins/route-limits.ts';
import { webPlugin } from './plugins/web.ts';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Test hooks for services. */
  auth?: AuthServiceOptions;
  /** Replaces the configured mailer (tests). */
  mailer?: Mailer;
  /** Replaces the file storage on `config.filesDir` (tests: a disk that fills up). */
  storage?: FileStorage;
  /** Replaces the configured SMS gateway (tests). */
  sms?: SmsGateway;
  /** Heartbeat period of event streams (tests shorten it). */
  eventsHeartbeatMs?: number;
  /** Where the log lines go instead of stdout (tests read them back). */
  logStream?: { write(line: string): void };
  /** The clock of services that read "now" for their answers (tests pin it to the demo's). */
  now?: () => Date;
  /** The Redis rate-limit store's settings (tests that count requests wait longer for Redis). */
  rateLimitStore?: RateLimitStoreOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The background job runner; main.ts starts it, tests drive it with `runDue()`. */
    jobs: JobRunner;
  }
}

/** Paths whose values must never reach the logs. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.old_password',
  '*.refresh',
  '*.access',
  '*.otp',
  '*.mfa_token',
];

/**
 * The request as logged: the URL without secrets carried in the query (the events stream's
 * ticket), otherwise what Fastify logs by default.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&]ticket=)[^&]*/g, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * A request path as a lenient server or proxy might read it (decoded, lower case, slashes
 * collapsed, dot segments and `;` parameters removed), so that no spelling of an API path is
 * answered with the app's page.
 */
function normalisedPath(url: string): string {
  let text = url.split('?')[0]!;
  try {
    text = decodeURIComponent(text);
  } catch {
    // a malformed escape is left as written
  }
  text = text
    .toLowerCase()
    .replace(/[\\/]+/g, '/')
    .replace(/;[^/]*/g, '');
  // always a path (never a scheme or a host that could fail to parse), dot segments resolved
  return new URL(`/${text.replace(/^\//, '')}`, 'http://host').pathname;
}

/**
 * Builds the application without listening: plugins in the order external → app → routes
 * (fastify/demo). Tests call it with an in-memory database and use `app.inject`.
 */
export async function buildApp({
  config,
  database,
  auth: authOptions,
  mailer: mailerOverride,
  storage: storageOverride,
  sms: smsOverride,
  eventsHeartbeatMs,
  logStream,
  now,
  rateLimitStore: rateLimitStoreOptions,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: REDACT,
            serializers: { req: serializeRequest },
            ...(logStream ? { stream: logStream } : {}),
          },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // tests also encode every response with zod and compare (see plugins/serializer.ts)
  app.setSerializerCompiler(createSerializerCompiler({ verify: config.env === 'test' }));

  // external
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd injects its CSS-in-JS style elements at run time
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.branding.logoUrl?.startsWith('http') ? [new URL(config.branding.logoUrl).origin] : []),
        ],
        connectSrc: [
          "'self'",
          ...(config.errorReportingDsn ? [new URL(config.errorReportingDsn).origin] : []),
        ],
        frameAncestors: ["'none'"],
        // the file viewer previews PDFs, audio and video from object URLs of downloaded files
        frameSrc: ["'self'", 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // only where the portal is served over TLS; on plain HTTP it would break every request
        upgradeInsecureRequests: config.publicUrl?.startsWith('https:') ? [] : null,
      },
    },
    strictTransportSecurity: config.publicUrl?.startsWith('https:') ? undefined : false,
    referrerPolicy: { policy: 'same-origin' },
  });
  const rateLimitStore = createRateLimitStore(
    config.redisUrl,
    config.redisKeyPrefix,
    app.log,
    rateLimitStoreOptions,
  );
  app.addHook('onClose', async () => rateLimitStore.close());
  await app.register(rateLimit, rateLimitStore.options);
  await app.register(multipart, {
    // one byte over the limit reaches the storage meter, which refuses the file (413)
    limits: {
      fileSize: ATTACHMENT_MAX_BYTES + 1,
      files: ATTACHMENTS_MAX_FILES + 1,
      fields: 20,
      fieldSize: 100_000,
      parts: 40,
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'SOC customer portal API', version: PRODUCT_VERSION },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    // a route reachable without signing in says so in the document (`security: []`)
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return input.route.config?.public ? { ...out, schema: { ...out.schema, security: [] } } : out;
    },
  });
  await app.register(async (docs) => {
    // the API reference is public, as the API's own 401 answers are
    docs.addHook('onRoute', declarePublic);
    await docs.register(swaggerUi, {
      routePrefix: `${API_BASE}/docs`,
      uiConfig: { docExpansion: 'list', deepLinking: false },
      staticCSP: true,
    });
  });

  // app
  await app.register(errorHandlerPlugin);
  const sms = smsOverride ?? createSmsGateway(database.db, config.sms);
  // the session check's answers, kept until a committed change of the user (any instance, by NOTIFY)
  const authCache =
    config.authCacheSeconds > 0 ? createAuthCache({ maxAgeMs: config.authCacheSeconds * 1000 }) : undefined;
  const forgetAuth = (userId: number) => authCache?.invalidateUser(userId);
  if (authCache) {
    const stopAuthListener = await listenAuthChanges(database, authCache);
    app.addHook('onClose', async () => stopAuthListener());
  }
  const auth = createAuthService(database.db, config, authOptions ?? {}, {
    sms,
    log: app.log,
    onSessionsChanged: forgetAuth,
  });
  const oidc = createOidcProviders(config.oidcProviders);
  const external = createExternalLoginService({
    db: database.db,
    oidc,
    startSession: auth.startSession,
    secondFactor: auth.mfa,
    mfaPolicy: config.externalLoginMfa,
    log: app.log,
  });
  const tokens = createTokensService(database.db);
  await app.register(authPlugin, {
    db: database.db,
    config,
    cache: authCache,
    verifyApiToken: (token, ip) => tokens.authenticate(token, ip),
    verifyOidcToken: async (token) => {
      const verified = await oidc.verifyToken(token);
      if (!verified) return null;
      // only accounts already linked or matched: a bare API call never creates one
      const user = await external.resolveUser(verified.claims, verified.provider, false).catch(() => null);
      return user ? { userId: user.id } : null;
    },
  });

  await app.register(routeLimitsPlugin, { db: database.db, config: config.routeLimits });

  // services and background work
  const storage = storageOverride ?? new FileStorage(config.filesDir);
  const mailer = auditedMailer(
    mailerOverride ??
      createMailer({
        smtpUrl: config.mail.smtpUrl,
        from: config.mail.from,
        outboxDir: config.mail.outboxDir,
      }),
    database.db,
    app.log,
  );
  const handlers: Parameters<typeof createJobRunner>[0]['handlers'] = {};
  const jobs = createJobRunner({
    db: database.db,
    handlers,
    log: app.log,
    lockTimeoutMs: config.jobs.leaseSeconds * 1000,
    backoffBaseMs: config.jobs.retryBaseMs,
  });
  // contacts' mail (issue 4) is queued by the notifications below, from the recorded events, so
  // that every writer of incidents triggers it; the services need no listener of their own
  const notifier = createIncidentNotifier({ db: database.db, config, mailer, jobs });
  const noStatusListener = async () => undefined;
  const bus = createPgEventBus(database, app.log);
  await bus.start();
  const caches = createCaches(database.db, bus);
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
  handlers[CSV_JOB] = (payload) => incidents.runCsvJob(payload);
  handlers[NOTIFY_JOB] = (payload) => notifier.run(payload);
  const comments = createCommentsService({
    db: database.db,
    config,
    storage,
    onStatus: noStatusListener,
    responses: caches.incidents,
  });
  const gossopka = createGossopkaService({ db: database.db, config, jobs, log: app.log });
  const inbound = createInboundMailService({ db: database.db, config, storage, onStatus: noStatusListener });
  handlers[GOSSOPKA_JOB] = (payload, job) => gossopka.runSend(payload, job);
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
  handlers[REPORT_BUILD_JOB] = (payload, job) => reports.runBuild(payload, job);
  const taskNotifier = createTaskNotifier({ db: database.db, config, mailer, jobs });
  handlers[TASK_NOTIFY_JOB] = (payload) => taskNotifier.run(payload);
  const tasks = createTasksService({
    db: database.db,
    storage,
    onSocReply: taskNotifier.onSocReply,
    storageQuotaBytes: config.storageQuotaBytesPerSystem,
  });
  jobs.addPoller(() => reports.tick());
  const events = createEventsService({ db: database.db, config, bus, heartbeatMs: eventsHeartbeatMs });
  const notifications = createNotificationsService({
    db: database.db,
    config,
    mailer,
    jobs,
    events: events.repo,
  });
  handlers[NOTIFY_EVENT_JOB] = (payload) => notifications.runEvent(payload);
  handlers[NOTIFY_USER_JOB] = (payload) => notifications.runUser(payload);
  handlers[SECURITY_NOTICE_JOB] = createSecurityNoticeJob({ db: database.db, mailer });
  jobs.addPoller(() => notifications.poll());
  app.decorate('jobs', jobs);
  // open event streams would hold the server open: end them first, clients reconnect elsewhere
  app.addHook('preClose', async () => events.closeAll());
  app.addHook('onClose', async () => {
    await bus.close();
    await jobs.stop();
    await gossopka.close();
    mailer.close();
  });

  // routes
  await app.register(healthRoutes, { database });
  await app.register(authRoutes, {
    prefix: `${API_BASE}/auth`,
    auth,
    ratePerMinute: config.authRateLimitPerMinute,
  });
  await app.register(externalLoginRoutes, {
    prefix: `${API_BASE}/auth`,
    config,
    oidc,
    external,
    auth,
    ratePerMinute: config.authRateLimitPerMinute,
  });
  await app.register(tokensRoutes, { prefix: `${API_BASE}/auth`, tokens, config });
  await app.register(smsOutboxRoutes, { db: database.db, enabled: config.sms.outbox && !smsOverride });
  await app.register(portalRoutes, { prefix: `${API_BASE}/portal`, config, db: database.db });
  await app.register(adminRoutes, {
    prefix: `${API_BASE}/admin`,
    admin: createAdminService({ db: database.db, config, onUserChanged: forgetAuth }),
    tokens,
    config,
  });
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
  await app.register(usersRoutes, {
    prefix: `${API_BASE}/soc`,
    users: createUsersService(database.db),
    config,
  });
  await app.register(inboundMailRoutes, { prefix: `${API_BASE}/soc`, inbound, config });
  await app.register(lookupsRoutes, { prefix: `${API_BASE}/soc`, db: database.db, config });
  await app.register(tenantsRoutes, {
    prefix: `${API_BASE}/soc`,
    tenants: createTenantsService(database.db),
    config,
  });
  await app.register(assetsRoutes, {
    prefix: `${API_BASE}/cmdb`,
    assets: createAssetsService(database.db),
    config,
  });
  const logSources = createLogSourcesService(database.db);
  await app.register(logSourcesRoutes, { prefix: `${API_BASE}/soc`, logSources, config });
  await app.register(filesRoutes, {
    prefix: `${API_BASE}/soc`,
    files: createFilesService(database.db),
    storage,
  });
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
  await app.register(dashboardRoutes, {
    prefix: `${API_BASE}/soc`,
    dashboard: createDashboardService({ db: database.db, attack: config }),
  });
  await app.register(rulesRoutes, {
    prefix: `${API_BASE}/soc`,
    rules: createRulesService({
      db: database.db,
      attack: rulesAttack(config),
      cache: caches.rules,
      ...(now ? { now } : {}),
    }),
    config,
  });
  await app.register(reportsRoutes, { prefix: `${API_BASE}/soc`, reports, config });
  await app.register(eventsRoutes, { prefix: `${API_BASE}/events`, events });
  await app.register(notificationsRoutes, { prefix: `${API_BASE}/notifications`, notifications });
  await app.register(auditRoutes, {
    prefix: `${API_BASE}/audit`,
    audit: createAuditService(database.db),
    config,
  });
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
  await app.register(misconfigsRoutes, {
    prefix: `${API_BASE}/soc`,
    misconfigs: createMisconfigsService({ db: database.db }),
    config,
  });
  if (config.webDist) await app.register(webPlugin, { webDist: config.webDist });

  app.setNotFoundHandler((request, reply) => {
    // a missing asset is a real 404, so that a stale chunk reference fails loudly in the browser
    const wantsPage =
      request.method === 'GET' &&
      !/^\/(api|assets)(\/|$)/.test(normalisedPath(request.url)) &&
      config.webDist;
    if (wantsPage) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ detail: 'Not found.' });
  });

  return app;
}
