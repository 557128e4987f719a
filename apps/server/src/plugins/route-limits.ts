import type {} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config, RouteLimitBucket } from '../core/config.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../lib/http-errors.ts';
import type { MessageKey } from '../lib/messages.ts';
import { msg } from '../lib/messages.ts';
import type { AuthContext } from '../core/auth.ts';
import { systemScope } from '../core/auth.ts';
import { createRouteLimitsRepository } from './route-limits.repository.ts';

/**
 * Whose systems a limited route's request counts against: the incident of `:key`, the task or
 * webhook endpoint of `:id`, the `system` of the JSON body, or (absent) the caller's own systems.
 */
export type RouteLimitTenant = 'incident' | 'task' | 'webhook' | 'body';

/** A route's rate limit: `config: { costLimit: 'export' }` or `{ bucket, tenant }`. */
export type RouteLimitConfig = RouteLimitBucket | { bucket: RouteLimitBucket; tenant: RouteLimitTenant };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counts the route's requests per user and per system (plugins/route-limits.ts). */
    costLimit?: RouteLimitConfig;
  }
}

export interface RouteLimitsOptions {
  db: Db;
  config: Config['routeLimits'];
}

interface Counter {
  key: string;
  max: number;
  scope: 'user' | 'system';
}

/** The label of each bucket in the refusal's text. */
const LABELS: Record<RouteLimitBucket, MessageKey> = {
  export: 'routeLimitExport',
  report: 'routeLimitReport',
  comment: 'routeLimitComment',
  upload: 'routeLimitUpload',
  incident: 'routeLimitIncident',
  pdf: 'routeLimitPdf',
  feed: 'routeLimitFeed',
  layer: 'routeLimitLayer',
  webhook_test: 'routeLimitWebhookTest',
};

/** The 429 of a limit (in the caller's language); Retry-After says when the window ends. */
export function routeLimitExceeded(
  bucket: RouteLimitBucket,
  scope: Counter['scope'],
  max: number,
  windowSeconds: number,
  retryAfterSeconds: number,
): HttpError {
  const what = msg(LABELS[bucket]);
  const detail =
    scope === 'user'
      ? msg('routeLimitPerUser', what, max, windowSeconds)
      : msg('routeLimitPerSystem', what, max, windowSeconds);
  return new HttpError(429, detail, undefined, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });
}

/**
 * Rate limits of the expensive and write routes, one mechanism for all of them: a route names its
 * bucket in `config.costLimit`; before its handler (after sign-in and validation, before a
 * multipart body is read) the request counts once against the caller (`<bucket>:user:<id>`) and
 * once against each system it concerns (`<bucket>:system:<id>`). The counters are those of
 * @fastify/rate-limit (`createRateLimit`), so with REDIS_URL every instance counts in one Redis.
 *
 * The systems a request concerns: the object's (the incident's or task's system, the `system` of
 * a new incident) or, for routes over several systems (CSV exports, reports, documents), the
 * caller's scope. The provider's staff count under a key of their own per system
 * (`…:system:<id>:staff`), so that a tenant's customers cannot use up the budget of the analysts
 * who work on that tenant's incidents, nor the reverse; staff with no system in view (an unscoped
 * export) count per user only.
 */
export const routeLimitsPlugin = fp(
  async (app: FastifyInstance, { db, config }: RouteLimitsOptions) => {
    const objects = createRouteLimitsRepository(db);
    // the counter a check is about; createRateLimit reads its key and maximum from the request
    // (in Redis the key is `<prefix>rate-limit:<key>`, integrations/redis/rate-limit-store.ts)
    const counters = new WeakMap<FastifyRequest, Counter>();
    const check = app.createRateLimit({
      timeWindow: config.windowSeconds * 1000,
      keyGenerator: (request) => counters.get(request)!.key,
      max: (request) => counters.get(request)!.max,
    });

    const objectSystems = async (request: FastifyRequest, tenant: RouteLimitTenant): Promise<number[]> => {
      const params = request.params as { key?: number; id?: number };
      if (tenant === 'body') {
        const system = (request.body as { system?: unknown } | undefined)?.system;
        return typeof system === 'number' ? [system] : [];
      }
      const systemId = await objects.systemOfObject(
        tenant,
        Number(tenant === 'incident' ? params.key : params.id),
      );
      return systemId === undefined ? [] : [systemId];
    };

    /** The systems a request counts against (see above); never a system outside a customer's scope. */
    const systemsOf = async (request: FastifyRequest, auth: AuthContext, tenant?: RouteLimitTenant) => {
      const scope = systemScope(auth);
      const own = tenant ? await objectSystems(request, tenant) : [];
      if (!scope) return own;
      const inScope = own.filter((id) => scope.includes(id));
      // another tenant's object: the handler answers 404; the request counts as the caller's
      return inScope.length ? inScope : scope;
    };

    app.addHook('onRoute', (route) => {
      const limit = route.config?.costLimit;
      if (!limit) return;
      const { bucket, tenant } = typeof limit === 'string' ? { bucket: limit, tenant: undefined } : limit;
      const { perUser, perSystem } = config.buckets[bucket];
      if (!perUser && !perSystem) return;
      const hook = async (request: FastifyRequest) => {
        const auth = request.auth;
        // anonymous requests never reach a limited route (the auth hook refuses them)
        if (!auth) return;
        const list: Counter[] = [];
        if (perUser) list.push({ key: `${bucket}:user:${auth.userId}`, max: perUser, scope: 'user' });
        if (perSystem) {
          const staff = auth.role !== 'customer' ? ':staff' : '';
          for (const id of await systemsOf(request, auth, tenant))
            list.push({ key: `${bucket}:system:${id}${staff}`, max: perSystem, scope: 'system' });
        }
        for (const counter of list) {
          counters.set(request, counter);
          const result = await check(request);
          if (!result.isAllowed && result.isExceeded) {
            throw routeLimitExceeded(
              bucket,
              counter.scope,
              counter.max,
              config.windowSeconds,
              result.ttlInSeconds,
            );
          }
        }
      };
      const existing = route.preHandler;
      route.preHandler = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
    });
  },
  { name: 'route-limits', dependencies: ['@fastify/rate-limit'] },
);
