import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../core/config.ts';

/** Smaller answers go out as they are: the encoding's framing and CPU would outweigh the gain. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Answers up to this size are compressed inline; larger ones through a zlib stream. */
const SYNC_COMPRESSION_MAX_BYTES = 128 * 1024;

/**
 * Types worth compressing: JSON, CSV and other text, XML, YAML, SVG. Not live events (each
 * event must leave at once, and the stream is hijacked anyway), not PDF, images or archives,
 * which are compressed already.
 */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[+/](?:json|xml|yaml|javascript)(?:;|$)|^image\/svg\+xml(?:;|$)/;

/**
 * Answers at least this large that are the same text each time (the MITRE matrix: 1.4 MB,
 * serialised once) are compressed once per encoding and kept: Brotli 4 costs 52 ms of CPU on it.
 */
export const LARGE_ANSWER_BYTES = 64 * 1024;
/** Large texts kept with their compressed forms (each entry is one text and up to two encodings). */
const LARGE_ANSWERS_KEPT = 8;

type Encoding = 'br' | 'gzip';

/** The encoding of ours that the client accepts, Brotli first; null for none. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [token = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    accepted.set(token, q ? Number(q.slice(2)) : 1);
  }
  const weight = (name: Encoding) => accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0);
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  return weight('gzip') > 0 ? 'gzip' : null;
}

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
    const compressors: Record<Encoding, (text: string) => Promise<Buffer>> = {
      br: (text) =>
        promisify(brotliCompress)(text, {
          params: { [constants.BROTLI_PARAM_QUALITY]: config.brotliQuality },
        }),
      gzip: (text) => promisify(gzip)(text, { level: config.gzipLevel }),
    };
    // keyed by the text itself: the same string object each time is one pointer comparison
    const large = new Map<string, Partial<Record<Encoding, Promise<Buffer>>>>();
    const compressLarge = (text: string, encoding: Encoding): Promise<Buffer> => {
      const entry = large.get(text) ?? {};
      large.delete(text);
      large.set(text, entry);
      if (large.size > LARGE_ANSWERS_KEPT) large.delete(large.keys().next().value!);
      entry[encoding] ??= compressors[encoding](text).catch((error: unknown) => {
        delete entry[encoding];
        throw error;
      });
      return entry[encoding];
    };
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
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      if (typeof payload !== 'string' || payload.length < LARGE_ANSWER_BYTES || !encoding) return payload;
      const compressed = await compressLarge(payload, encoding);
      // the compressor below leaves an answer that has an encoding as it is
      void reply.header('content-encoding', encoding).header('content-length', compressed.length);
      return compressed;
    });
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: COMPRESSION_THRESHOLD_BYTES,
      // inline rather than through a zlib stream per answer: on this two-core machine the stream
      // (the plugin's default above 8 KB here) cost a 35 KB list page 0.7 ms more CPU with Brotli
      // than compressing it inline does (0.2 ms); larger answers keep the stream
      syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
      customTypes: COMPRESSIBLE,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: config.brotliQuality } },
      zlibOptions: { level: config.gzipLevel },
      globalDecompression: false,
    });
  },
  { name: 'soc-compression' },
);
