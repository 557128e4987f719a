import type { ServerResponse } from 'node:http';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { declarePublic } from './auth.ts';

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html, sw.js and
 * version.json never cached. Unknown non-API paths get index.html (see the not-found handler
 * in not-found.ts) so that client-side routes survive a reload.
 *
 * The build writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file
 * (vite.config.ts); the one the browser accepts is sent as it is, so static files cost no CPU
 * to compress, and every answer says that it varies by Accept-Encoding.
 */
/**
 * Headers of the security plugin that only a document (or a worker) obeys: a script or a style
 * sheet ignores them, and on the twenty-odd files of a first visit they would cost more bytes
 * than many of the files themselves. `nosniff`, CORP, HSTS and the referrer policy stay.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

export const webPlugin = fp(async (app: FastifyInstance, opts: { webDist: string }) => {
  const files = {
    root: opts.webDist,
    index: false as const,
    serveDotFiles: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders(res: { setHeader(name: string, value: string): unknown }, filePath: string) {
      const rel = path.relative(opts.webDist, filePath);
      const hashed = rel.startsWith(`assets${path.sep}`);
      res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('vary', 'accept-encoding');
      // hashed scripts and styles (their .br/.gz copies too); never sw.js, whose CSP binds the worker
      if (hashed && /\.(?:js|css)(?:\.br|\.gz)?$/.test(rel)) {
        // @fastify/static passes reply.raw, a ServerResponse; its type names only setHeader
        const raw = res as ServerResponse;
        for (const name of DOCUMENT_ONLY_HEADERS) raw.removeHeader(name);
      }
    },
  };
  // `reply.sendFile` for the not-found handler, which lives at the root
  await app.register(fastifyStatic, { ...files, serve: false });
  await app.register(async (web) => {
    // the app's own files are what an anonymous browser loads first; only this scope's routes
    web.addHook('onRoute', declarePublic);
    // Hashed files never change under their name and are cached for a year without asking again:
    // a validator or a range offer would be about a hundred bytes on each of a first visit's
    // hundred-odd files and never be used (issue 40, the dashboard's transfer budget).
    await web.register(fastifyStatic, {
      ...files,
      root: path.join(opts.webDist, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      wildcard: true,
      etag: false,
      lastModified: false,
      acceptRanges: false,
    });
    await web.register(fastifyStatic, { ...files, decorateReply: false, wildcard: true });
    // the static handler refuses to list the root folder; the root is the app itself
    web.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html'),
    );
  });
});
