import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { declarePublic } from './auth.ts';

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html and
 * version.json never cached. Unknown non-API paths get index.html (see the not-found handler
 * in not-found.ts) so that client-side routes survive a reload.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { webDist: string }) => {
  const files = {
    root: opts.webDist,
    index: false as const,
    serveDotFiles: false,
    cacheControl: false,
    setHeaders(res: { setHeader(name: string, value: string): unknown }, filePath: string) {
      const rel = path.relative(opts.webDist, filePath);
      res.setHeader(
        'cache-control',
        rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  };
  // `reply.sendFile` for the not-found handler, which lives at the root
  await app.register(fastifyStatic, { ...files, serve: false });
  await app.register(async (web) => {
    // the app's own files are what an anonymous browser loads first; only this scope's routes
    web.addHook('onRoute', declarePublic);
    await web.register(fastifyStatic, { ...files, decorateReply: false, wildcard: true });
    // the static handler refuses to list the root folder; the root is the app itself
    web.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html'),
    );
  });
});
