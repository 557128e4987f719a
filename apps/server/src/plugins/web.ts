import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html and
 * version.json never cached. Unknown non-API paths get index.html (see the not-found handler
 * in app.ts) so that client-side routes survive a reload.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { webDist: string }) => {
  await app.register(fastifyStatic, {
    root: opts.webDist,
    wildcard: true,
    index: false,
    serveDotFiles: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      const rel = path.relative(opts.webDist, filePath);
      res.setHeader(
        'cache-control',
        rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // the static handler refuses to list the root folder; the root is the app itself
  app.get('/', { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html'),
  );
});
