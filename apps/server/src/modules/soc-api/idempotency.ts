import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_HOURS } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { AuthContext } from '../../core/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { systemScope } from '../../core/auth.ts';
import { createIdempotencyRepository } from './idempotency.repository.ts';

/** A claim older than this whose call never finished (the instance died) may be taken over. */
const STALE_CLAIM_MS = 5 * 60_000;

/**
 * Whose keys a call shares: those of the same credential (API token, else sign-in session) with
 * the same system scope. Two tokens of one user are two clients; one's key must never replay the
 * other's answer (which may belong to systems the other token cannot see).
 */
export function idempotencyScope(auth: AuthContext): string {
  const credential = auth.tokenId
    ? `token:${auth.tokenId}`
    : auth.sessionId
      ? `session:${auth.sessionId}`
      : 'user';
  const systems = systemScope(auth);
  return `${credential};systems:${systems ? [...systems].sort((a, b) => a - b).join(',') : '*'}`;
}

/**
 * `Idempotency-Key` on create calls (issue 13): the first call claims the key for the caller's
 * credential (idempotencyScope),
 * runs and stores its answer; a retry with the same key and request gets that answer again
 * (header `Idempotent-Replayed: true`) and creates nothing. The same key with another request
 * is refused (422); a retry while the first call still runs waits for a 409. A failed call
 * releases the key, so the client may retry it.
 */
export function createIdempotency(db: Db) {
  const keys = createIdempotencyRepository(db);
  return {
    async run<T>(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      handler: () => Promise<T>,
    ): Promise<FastifyReply> {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      if (header === undefined) return reply.status(status).send(await handler());
      const key = Array.isArray(header) ? header[0]! : header;
      if (!key || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
        throw badRequest({
          idempotency_key: [
            `Use 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID is a good key).`,
          ],
        });
      }
      const auth = requireAuth(request);
      const { userId } = auth;
      const scope = idempotencyScope(auth);
      const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
      const requestHash = createHash('sha256')
        .update(JSON.stringify({ params: request.params ?? null, body: request.body ?? null }))
        .digest('hex');

      const id = { userId, scope, key };
      if (!(await keys.claimKey(id, { route, requestHash }))) {
        const existing = await keys.findKey(id);
        if (!existing)
          throw new HttpError(409, msg('idempotencyReleasing'), undefined, {
            'retry-after': '1',
          });
        if (existing.route !== route || existing.requestHash !== requestHash) {
          throw new HttpError(422, msg('idempotencyMismatch'));
        }
        if (existing.statusCode !== null) {
          return reply
            .status(existing.statusCode)
            .header('idempotent-replayed', 'true')
            .send(existing.response);
        }
        if (!(await keys.takeOverStaleClaim(id, new Date(Date.now() - STALE_CLAIM_MS)))) {
          throw new HttpError(409, msg('idempotencyInProgress'), undefined, {
            'retry-after': '1',
          });
        }
      }
      let result: T;
      try {
        result = await handler();
      } catch (err) {
        await keys.releaseKey(id);
        throw err;
      }
      // the answer as the client receives it (JSON), so that a replay is byte-for-byte the same data
      const stored: unknown = JSON.parse(JSON.stringify(result ?? null));
      await keys.storeAnswer(id, status, stored);
      return reply.status(status).send(result);
    },

    /** Forgets keys older than IDEMPOTENCY_TTL_HOURS (run from the job poller). */
    async prune(): Promise<void> {
      await keys.pruneKeys(IDEMPOTENCY_TTL_HOURS);
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
