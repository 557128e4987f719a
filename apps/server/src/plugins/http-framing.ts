import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-errors.ts';
import { msg } from '../lib/messages.ts';

/** How many `Host` fields a request carries, from its raw header list (name, value, name, …). */
export function hostFieldCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}

/**
 * A request with more than one `Host` field answers 400 (RFC 9112 §3.2). Node keeps the first
 * and drops the others from `request.headers`, while a proxy or cache in front may have used
 * another one: the two would disagree on which site the request is for (cache poisoning, routing
 * past a virtual host's rules). `rawHeaders` keeps every field as sent.
 */
export const httpFramingPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (hostFieldCount(request.raw.rawHeaders) > 1) throw new HttpError(400, msg('duplicateHost'));
    });
  },
  { name: 'http-framing' },
);
