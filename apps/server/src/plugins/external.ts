import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE, ATTACHMENTS_MAX_FILES, ATTACHMENT_MAX_BYTES } from '@soc/contracts';
import type { Config } from '../core/config.ts';
import { createRateLimitStore } from '../integrations/redis/rate-limit-store.ts';
import type { RateLimitStoreOptions } from '../integrations/redis/rate-limit-store.ts';
import { declarePublic } from './auth.ts';
import { swaggerOptions } from './openapi.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the rate limits' Redis is connected (undefined without REDIS_URL): `/readyz` reports it. */
    redisState: () => 'ok' | 'unavailable' | undefined;
  }
}

/**
 * The plugins of others, at the root (fastify/demo's "external"): security headers and CSP, the
 * rate limit with its store (Redis when configured), multipart limits, the OpenAPI document
 * (plugins/openapi.ts) and its UI. Registered before everything else, so that their hooks see every route.
 */
export const externalPlugins = fp(
  async (
    app: FastifyInstance,
    {
      config,
      rateLimitStore: storeOptions,
    }: { config: Config; rateLimitStore?: RateLimitStoreOptions | undefined },
  ) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // the service worker (sw.js, precaching the app's files) comes from the portal itself
          workerSrc: ["'self'"],
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
      storeOptions,
    );
    app.addHook('onClose', async () => rateLimitStore.close());
    app.decorate('redisState', () => rateLimitStore.state());
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
    await app.register(swagger, swaggerOptions(config));
    await app.register(async (docs) => {
      // the API reference is public, as the API's own 401 answers are
      docs.addHook('onRoute', declarePublic);
      await docs.register(swaggerUi, {
        routePrefix: `${API_BASE}/docs`,
        uiConfig: { docExpansion: 'list', deepLinking: false },
        staticCSP: true,
      });
    });
  },
);
