import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/** Smaller answers go out as they are: the encoding's framing and CPU would outweigh the gain. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Types worth compressing: JSON, CSV and other text, XML, YAML, SVG. Not live events (each
 * event must leave at once, and the stream is hijacked anyway), not PDF, images or archives,
 * which are compressed already.
 */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[+/](?:json|xml|yaml|javascript)(?:;|$)|^image\/svg\+xml(?:;|$)/;

const isCompressible = (reply: FastifyReply): boolean => {
  const type = reply.getHeader('content-type');
  // fastify's own default for objects, as @fastify/compress assumes it
  return COMPRESSIBLE.test(typeof type === 'string' ? type : 'application/json');
};

/**
 * Compresses API answers over 1 KB with Brotli or gzip, as the client accepts (`@fastify/compress`,
 * levels from the configuration: see docs/performance.md for how they were chosen). Registered
 * before every route, so that its hook sees them all. Answers that already carry an encoding (the
 * web app's pre-compressed files) pass through untouched.
 *
 * Stored files (they announce `Accept-Ranges: bytes`) stay as stored: their length, ETag and byte
 * ranges describe the stored bytes, and most uploads are compressed formats already. Answers
 * marked `no-transform` stay as they are too. Request bodies are never decompressed: the body
 * limits count what arrives.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance, { config }: { config: Config['compression'] }) => {
    if (!config.enabled) return;
    // runs before the compressor's route-level hook: decides what may vary by Accept-Encoding
    app.addHook('onSend', async (request, reply, payload) => {
      if (!isCompressible(reply)) return payload;
      const cacheControl = reply.getHeader('cache-control');
      if (
        reply.hasHeader('accept-ranges') ||
        (typeof cacheControl === 'string' && cacheControl.includes('no-transform'))
      ) {
        request.headers['x-no-compression'] = '1';
        return payload;
      }
      // also on identity answers, so that a shared cache never serves one client's encoding to another
      const vary = reply.getHeader('vary');
      const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
      if (!current.toLowerCase().includes('accept-encoding')) {
        void reply.header('vary', current ? `${current}, accept-encoding` : 'accept-encoding');
      }
      return payload;
    });
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: COMPRESSION_THRESHOLD_BYTES,
      customTypes: COMPRESSIBLE,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: config.brotliQuality } },
      zlibOptions: { level: config.gzipLevel },
      globalDecompression: false,
    });
  },
  { name: 'soc-compression' },
);
