/**
 * The contract between the composition root (app.ts) and the modules: what every module plugin
 * is registered with. It sits in the modules layer (design §10), above db/, lib/, integrations/
 * and jobs/, whose types it names, and below app.ts, which makes it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthCache, AuthServiceOptions } from '../core/auth.ts';
import type { Config } from '../core/config.ts';
import type { Database, Db } from '../db/client.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { OidcProviders } from '../integrations/oidc/oidc-providers.ts';
import type { SmsGateway } from '../integrations/sms/sms-gateway.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { CacheRegistry } from '../lib/cache/caches.ts';
import type { EventBus } from './events/event-bus.ts';
import type { Readiness } from './health/readiness.ts';
import type { GossopkaService } from './incidents/gossopka.service.ts';

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
  /** The caches of answers: each module registers its own (lib/cache/caches.ts). */
  caches: CacheRegistry;
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
