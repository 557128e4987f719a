import type { RateLimitStoreOptions } from './integrations/redis/rate-limit-store.ts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_BASE } from '@soc/contracts';
import type { Config } from './core/config.ts';
import type { Database, Db } from './db/client.ts';
import { auditedMailer, createMailer } from './integrations/mail/mailer.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import { createOidcProviders } from './integrations/oidc/oidc-providers.ts';
import type { OidcProviders } from './integrations/oidc/oidc-providers.ts';
import { createSmsGateway } from './integrations/sms/sms-gateway.ts';
import type { SmsGateway } from './integrations/sms/sms-gateway.ts';
import type { FileStorage } from './integrations/storage/file-storage.ts';
import { createFileStorage } from './integrations/storage/create-storage.ts';
import { createJobRunner } from './jobs/runner.ts';
import type { JobRunner } from './jobs/runner.ts';
import { createCaches } from './lib/cache/caches.ts';
import type { Caches } from './lib/cache/caches.ts';
import type { AuthServiceOptions } from './modules/auth/index.ts';
import { createReadiness } from './modules/health/index.ts';
import type { Readiness } from './modules/health/index.ts';
import { createEventsRepository, createPgEventBus } from './modules/events/index.ts';
import type { EventBus } from './modules/events/index.ts';
import { createGossopkaService } from './modules/incidents/index.ts';
import type { GossopkaService } from './modules/incidents/index.ts';
import { createAuthCache, listenAuthChanges } from './plugins/auth-cache.ts';
import { databaseUnavailable } from './plugins/error-handler.ts';
import type { AuthCache } from './core/auth.ts';

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
 * What the modules share, made once per app: the infrastructure and the few stateful singletons
 * that more than one module uses. Services over the database alone are not here: each module
 * makes its own (or takes another module's factory from that module's index.ts).
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  storage: FileStorage;
  /** The configured mailer behind the audit of every sent message. */
  mailer: Mailer;
  /** Modules add their job types (`jobs.handle`) and pollers (`jobs.addPoller`). */
  jobs: JobRunner;
  /** The committed events, by LISTEN (started). */
  bus: EventBus;
  /** Every cache of answers (`createCaches`, the one place they are made). */
  caches: Caches;
  /** Modules add what a new instance warms before it answers ready (`readiness.add`). */
  readiness: Readiness;
  sms: SmsGateway;
  /** Whether a test replaced the SMS gateway (the dev outbox then has nothing to show). */
  smsReplaced: boolean;
  /** The session check's answers, kept until a committed change of the user (absent: off). */
  authCache?: AuthCache;
  /** Drops a user's kept session checks on this instance (other instances learn it by NOTIFY). */
  forgetAuth: (userId: number) => void;
  /** The configured OIDC providers (their discovery documents are kept). */
  oidc: OidcProviders;
  /** Sending to the national centre: owns the simulator's server, closed with the app. */
  gossopka: GossopkaService;
  /** The clock of answers that read "now" (tests pin it); absent: the real clock. */
  now?: () => Date;
  /** Test hooks of the auth service. */
  authOptions: AuthServiceOptions;
  /** Heartbeat period of event streams (tests shorten it). */
  eventsHeartbeatMs?: number;
}

/** What every module plugin is registered with. */
export interface ModuleOptions {
  ctx: AppContext;
}

/** A module: a plugin that registers its area's routes (under their prefixes), jobs and hooks. */
export type AppModule = FastifyPluginAsyncZod<ModuleOptions>;

/**
 * Makes the shared context on the root instance and registers the hooks that close what it
 * owns: the auth listener, then the event bus, the job runner, the national centre's sender and
 * the mailer (in that order, after the modules' preClose hooks ended the event streams).
 */
export async function createAppContext(app: FastifyInstance, options: BuildAppOptions): Promise<AppContext> {
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
  const caches = createCaches(db, bus);
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
