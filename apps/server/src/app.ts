import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, JSON_BODY_LIMIT_BYTES } from '@soc/contracts';
import { fastifyTrustProxy } from './config.ts';
import type { AuthServiceOptions } from './core/auth.ts';
import type { Config } from './core/config.ts';
import type { Database } from './db/client.ts';
import { auditedMailer, createMailer } from './integrations/mail/mailer.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import { createOidcProviders } from './integrations/oidc/oidc-providers.ts';
import type { RateLimitStoreOptions } from './integrations/redis/rate-limit-store.ts';
import { createSmsGateway } from './integrations/sms/sms-gateway.ts';
import type { SmsGateway } from './integrations/sms/sms-gateway.ts';
import { createFileStorage } from './integrations/storage/create-storage.ts';
import type { FileStorage } from './integrations/storage/file-storage.ts';
import { createJobRunner } from './jobs/runner.ts';
import type { JobRunner } from './jobs/runner.ts';
import { createCacheRegistry } from './lib/cache/caches.ts';
import type { AppContext } from './modules/app-module.ts';
import { createEventsRepository, createPgEventBus } from './modules/events/index.ts';
import { createReadiness } from './modules/health/index.ts';
import type { Readiness } from './modules/health/index.ts';
import { createGossopkaService } from './modules/incidents/index.ts';
import { createAuthCache, listenAuthChanges } from './plugins/auth-cache.ts';
import { databaseUnavailable } from './plugins/error-handler.ts';
import { adminModule } from './modules/admin/index.ts';
import { alertsModule } from './modules/alerts/index.ts';
import { assetsModule } from './modules/assets/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { authModule, authPluginOptions } from './modules/auth/index.ts';
import { dashboardModule } from './modules/dashboard/index.ts';
import { documentsModule } from './modules/documents/index.ts';
import { eventsModule } from './modules/events/index.ts';
import { filesModule } from './modules/files/index.ts';
import { healthModule } from './modules/health/index.ts';
import { commentsModule, incidentsModule } from './modules/incidents/index.ts';
import { iocFeedModule } from './modules/ioc-feed/index.ts';
import { logSourcesModule } from './modules/logsources/index.ts';
import { misconfigsModule } from './modules/misconfigs/index.ts';
import { notificationsModule } from './modules/notifications/index.ts';
import { portalModule } from './modules/portal/index.ts';
import { reportsModule } from './modules/reports/index.ts';
import { rulesModule } from './modules/rules/index.ts';
import { socApiModule } from './modules/soc-api/index.ts';
import { tasksModule } from './modules/tasks/index.ts';
import { tenantsModule } from './modules/tenants/index.ts';
import { tokensModule } from './modules/tokens/index.ts';
import { usersModule } from './modules/users/index.ts';
import { webhooksModule } from './modules/webhooks/index.ts';
import { authPlugin } from './plugins/auth.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { externalPlugins } from './plugins/external.ts';
import { loggerOptions } from './plugins/logger.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { operationNamesPlugin } from './plugins/operation-names.ts';
import { frameworkErrorWithId, genRequestId, requestIdPlugin } from './plugins/request-id.ts';
import { httpFramingPlugin } from './plugins/http-framing.ts';
import { setNotFoundHandler } from './plugins/not-found.ts';
import { routeLimitsPlugin } from './plugins/route-limits.ts';
import { createSerializerCompiler } from './plugins/serializer.ts';
import { webPlugin } from './plugins/web.ts';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Test hooks for services. */
  auth?: AuthServiceOptions;
  /** Replaces the configured mailer (tests). */
  mailer?: Mailer;
  /** Replaces the configured file storage (main.ts shares its own; tests: a disk that fills up). */
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
  /**
   * main.ts: whether the database was reached and migrated (and a new demo installation filled);
   * until then every API request answers 503 with Retry-After. Absent: it is (tests migrate first).
   */
  databaseReady?: () => boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The background job runner; main.ts starts it, tests drive it with `runDue()`. */
    jobs: JobRunner;
    /** The warm-up `/readyz` waits for; main.ts starts it once the server listens. */
    readiness: Readiness;
  }
}

/**
 * Makes the shared context on the root instance and registers the hooks that close what it
 * owns: the auth listener, then the event bus, the job runner, the national centre's sender and
 * the mailer (in that order, after the modules' preClose hooks ended the event streams).
 */
async function createAppContext(app: FastifyInstance, options: BuildAppOptions): Promise<AppContext> {
  const { config, database, databaseReady } = options;
  const db = database.db;
  if (databaseReady) {
    // the probes and the web app's files need no database; the API's answers all do
    app.addHook('onRequest', async (request) => {
      if (!databaseReady() && request.url.startsWith(`${API_BASE}/`)) throw databaseUnavailable();
    });
  }
  const sms = options.sms ?? createSmsGateway(db, config.sms);
  // the session check's answers, kept until a committed change of the user (any instance, by NOTIFY)
  const authCache =
    config.authCacheSeconds > 0 ? createAuthCache({ maxAgeMs: config.authCacheSeconds * 1000 }) : undefined;
  const forgetAuth = (userId: number) => authCache?.invalidateUser(userId);
  if (authCache) {
    const stopAuthListener = await listenAuthChanges(database, authCache);
    app.addHook('onClose', async () => stopAuthListener());
  }
  const storage = options.storage ?? createFileStorage(config);
  const mailer = auditedMailer(
    options.mailer ??
      createMailer({
        smtpUrl: config.mail.smtpUrl,
        from: config.mail.from,
        outboxDir: config.mail.outboxDir,
      }),
    db,
    app.log,
  );
  const jobs = createJobRunner({
    db,
    log: app.log,
    lockTimeoutMs: config.jobs.leaseSeconds * 1000,
    backoffBaseMs: config.jobs.retryBaseMs,
  });
  // after a lost LISTEN connection the bus delivers the events committed meanwhile from the table
  const events = createEventsRepository(db);
  const bus = createPgEventBus(database, app.log, {
    newestId: () => events.newestId(),
    after: (afterId) => events.after(afterId, null),
  });
  await bus.start();
  const caches = createCacheRegistry(bus);
  const gossopka = createGossopkaService({ db, config, jobs, log: app.log });
  app.decorate('jobs', jobs);
  const readiness = createReadiness({ log: app.log });
  // the pool opened to its size before the first requests (a connection opened under load costs
  // them PostgreSQL's start of a backend)
  readiness.add('database pool', () => database.warm());
  app.decorate('readiness', readiness);
  app.addHook('onClose', async () => {
    readiness.stop();
    await bus.close();
    await jobs.stop();
    await gossopka.close();
    mailer.close();
    // a storage the test gave is the test's to close
    if (!options.storage) storage.close();
  });
  return {
    config,
    database,
    db,
    log: app.log,
    storage,
    mailer,
    jobs,
    bus,
    caches,
    readiness,
    sms,
    smsReplaced: options.sms !== undefined,
    authCache,
    forgetAuth,
    oidc: createOidcProviders(config.oidcProviders),
    gossopka,
    now: options.now,
    authOptions: options.auth ?? {},
    eventsHeartbeatMs: options.eventsHeartbeatMs,
  };
}

/**
 * The modules in the order their routes are registered (the OpenAPI document's order). Each
 * registers its routes under their prefixes, its job handlers and pollers, and its hooks.
 */
const MODULES = [
  healthModule,
  authModule,
  tokensModule,
  portalModule,
  adminModule,
  incidentsModule,
  commentsModule,
  usersModule,
  tenantsModule,
  assetsModule,
  logSourcesModule,
  filesModule,
  alertsModule,
  documentsModule,
  dashboardModule,
  rulesModule,
  reportsModule,
  eventsModule,
  notificationsModule,
  auditModule,
  socApiModule,
  tasksModule,
  misconfigsModule,
  iocFeedModule,
  webhooksModule,
];

/**
 * Builds the application without listening: plugins in the order external → app → modules →
 * web (fastify/demo). Tests call it with an in-memory database and use `app.inject`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestIdHeader: false,
    genReqId: genRequestId,
    frameworkErrors: frameworkErrorWithId,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // tests also encode every response with zod and compare (see plugins/serializer.ts)
  app.setSerializerCompiler(createSerializerCompiler({ verify: config.env === 'test' }));

  // the request id first, so that every answer carries it (also one that a later hook ends)
  await app.register(requestIdPlugin);
  // then the framing checks, before anything reads the request
  await app.register(httpFramingPlugin);
  // external; the compressor first, so that its hook sees every route (the API reference's too)
  await app.register(compressionPlugin, { config: config.compression });
  await app.register(externalPlugins, { config, rateLimitStore: options.rateLimitStore });

  // app: the shared context (database, storage, mail, jobs, events, caches), then the checks
  // every route passes
  await app.register(errorHandlerPlugin);
  // every module route's handler named after its operationId (stack traces, profiles, the log)
  await app.register(operationNamesPlugin);
  // before the modules, so that its hook times every route of theirs
  await app.register(metricsPlugin, { config: config.metrics, database: options.database });
  const ctx = await createAppContext(app, options);
  await app.register(authPlugin, authPluginOptions(ctx));
  await app.register(routeLimitsPlugin, { db: ctx.db, config: config.routeLimits });

  // modules
  for (const module of MODULES) await app.register(module, { ctx });

  if (config.webDist) await app.register(webPlugin, { webDist: config.webDist });
  setNotFoundHandler(app, config.webDist);
  return app;
}
