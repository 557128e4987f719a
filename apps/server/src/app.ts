import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fastifyTrustProxy } from './config.ts';
import { JSON_BODY_LIMIT_BYTES } from '@soc/contracts';
import { createAppContext } from './app-context.ts';
import type { BuildAppOptions } from './app-context.ts';
import { adminModule } from './modules/admin/index.ts';
import { alertsModule } from './modules/alerts/index.ts';
import { assetsModule } from './modules/assets/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { authModule, authPluginOptions } from './modules/auth/index.ts';
import { commentsModule } from './modules/comments/index.ts';
import { dashboardModule } from './modules/dashboard/index.ts';
import { documentsModule } from './modules/documents/index.ts';
import { eventsModule } from './modules/events/index.ts';
import { filesModule } from './modules/files/index.ts';
import { healthModule } from './modules/health/index.ts';
import { incidentsModule } from './modules/incidents/index.ts';
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

export type { BuildAppOptions } from './app-context.ts';

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
