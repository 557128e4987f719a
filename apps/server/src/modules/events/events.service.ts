import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SignJWT, jwtVerify } from 'jose';
import { EVENTS_HEARTBEAT_MS, EVENTS_RETRY_MS, EVENTS_TICKET_TTL_SECONDS } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { forbidden, unauthorized } from '../../lib/http-errors.ts';
import { eventStreamsOpen } from '../../lib/metrics.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { createAuthRepository, keyId, keysForToken } from '../auth/index.ts';
import type { EventBus, StoredEvent } from './event-bus.ts';
import { inboxFrame, presentLiveEvent, sseFrame } from './events.presenter.ts';
import { createEventsRepository } from './events.repository.ts';
import { msg } from '../../lib/messages.ts';

/** A ticket is signed like an access token but for another audience and type: neither works as the other. */
const TICKET_AUDIENCE = 'soc-portal-events';
const TICKET_ISSUER = 'soc-portal';
const EVENTS_RETENTION_DAYS = 7;
/** Open streams of one user on one instance; a new one beyond this ends the oldest. */
export const EVENTS_MAX_STREAMS_PER_USER = 5;

export interface EventsServiceDeps {
  db: Db;
  config: Config;
  bus: EventBus;
  /** Heartbeat period (tests shorten it). */
  heartbeatMs?: number;
}

/** May this caller see the event? Customers: every system of the object is one of theirs. */
export function eventVisibleTo(event: StoredEvent, auth: Pick<AuthContext, 'role' | 'systemIds'>): boolean {
  const scope = systemScope(auth as AuthContext);
  if (!scope) return true;
  return event.systemIds.length > 0 && event.systemIds.every((id) => scope.includes(id));
}

/**
 * Server-sent events (issue 13): tickets, the open streams of this instance and their fan-out.
 * Each stream re-reads its user at every heartbeat, so a deactivated account, an ended session
 * or a changed system membership takes effect within one heartbeat.
 */
export function createEventsService({
  db,
  config,
  bus,
  heartbeatMs = EVENTS_HEARTBEAT_MS,
}: EventsServiceDeps) {
  const repo = createEventsRepository(db);
  const authRepo = createAuthRepository(db);
  const streams = new Set<{ end: () => void }>();
  /** Each user's open streams on this instance, oldest first. */
  const streamsByUser = new Map<number, { end: () => void }[]>();
  let lastPrune = 0;

  return {
    repo,

    /**
     * A ticket for one stream, good for EVENTS_TICKET_TTL_SECONDS. Only for a signed-in session:
     * the stream re-checks its user, not an API token, so a token's system limit and its
     * revocation would not hold there.
     */
    async ticket(auth: AuthContext): Promise<{ ticket: string; expires_in: number }> {
      if (auth.tokenId) throw forbidden(msg('tokensCannotStream'));
      const ticket = await new SignJWT({ typ: 'events', sid: auth.sessionId })
        .setProtectedHeader({ alg: 'HS256', kid: keyId(config.jwtSecret) })
        .setJti(randomUUID())
        .setSubject(String(auth.userId))
        .setIssuer(TICKET_ISSUER)
        .setAudience(TICKET_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${EVENTS_TICKET_TTL_SECONDS}s`)
        .sign(config.jwtSecret);
      return { ticket, expires_in: EVENTS_TICKET_TTL_SECONDS };
    },

    /**
     * The caller a ticket stands for, checked like an access token (active user, live session).
     * A ticket opens one stream once: its `jti` is recorded in the database, so a second use is
     * refused on every instance.
     */
    async authenticate(ticket: string): Promise<AuthContext> {
      let userId: number;
      let sessionId: string | null;
      let jti: string;
      let expiresAt: Date;
      try {
        // the key the ticket names (current, or previous after a rotation); none: refused
        const [key] = keysForToken(ticket, config.jwtSecret, config.jwtPreviousSecret);
        if (!key) throw new Error('unknown key');
        const { payload } = await jwtVerify(ticket, key, {
          algorithms: ['HS256'],
          issuer: TICKET_ISSUER,
          audience: TICKET_AUDIENCE,
        });
        userId = Number(payload.sub);
        sessionId = typeof payload.sid === 'string' ? payload.sid : null;
        if (payload.typ !== 'events' || !Number.isInteger(userId)) throw new Error('wrong ticket');
        if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') throw new Error('no jti');
        jti = payload.jti;
        expiresAt = new Date(payload.exp * 1000);
      } catch {
        throw unauthorized(msg('eventsTicketInvalid'));
      }
      if (!(await repo.redeemTicket(jti, expiresAt))) {
        throw unauthorized(msg('eventsTicketUsed'));
      }
      const user = await authRepo.loadAuthUser(userId, sessionId);
      if (!user?.isActive || (sessionId !== null && !user.sessionAlive)) {
        throw unauthorized(msg('eventsTicketInvalid'));
      }
      return {
        userId: user.id,
        username: user.username,
        role: user.role,
        sessionId,
        systemIds: user.systemIds,
      };
    },

    /**
     * Serves one stream on a hijacked response until the client goes, the user loses access or
     * the app closes: replay after `lastEventId`, then live events, with heartbeats between.
     */
    async stream(res: ServerResponse, auth: AuthContext, lastEventId: number | undefined): Promise<void> {
      let current = auth;
      let closed = false;
      const queue: StoredEvent[] = [];
      let replaying = true;
      let sentUpTo = lastEventId ?? 0;
      const send = (e: StoredEvent) => {
        if (closed || e.id <= sentUpTo || !eventVisibleTo(e, current)) return;
        const live = presentLiveEvent(e);
        if (!live) return;
        sentUpTo = e.id;
        res.write(sseFrame(live));
      };
      const unsubscribe = bus.subscribe((e) => (replaying ? queue.push(e) : send(e)));
      // no id: a signal is not replayed, the client refetches its bell when it reconnects
      const unsubscribeInbox = bus.subscribeInbox((userId) => {
        if (!closed && userId === current.userId) res.write(inboxFrame);
      });
      const handle = {
        end: () => {
          if (closed) return;
          closed = true;
          unsubscribe();
          unsubscribeInbox();
          clearInterval(timer);
          streams.delete(handle);
          eventStreamsOpen.dec();
          const mine = streamsByUser.get(auth.userId)?.filter((s) => s !== handle) ?? [];
          if (mine.length) streamsByUser.set(auth.userId, mine);
          else streamsByUser.delete(auth.userId);
          res.end();
        },
      };
      streams.add(handle);
      eventStreamsOpen.inc();
      const mine = [...(streamsByUser.get(auth.userId) ?? []), handle];
      streamsByUser.set(auth.userId, mine);
      // a client that leaks streams (tabs, reconnect loops) keeps its newest ones
      for (const oldest of mine.slice(0, Math.max(0, mine.length - EVENTS_MAX_STREAMS_PER_USER))) {
        oldest.end();
      }
      res.on('close', handle.end);
      const timer = setInterval(() => {
        void (async () => {
          const user = await authRepo.loadAuthUser(current.userId, current.sessionId).catch(() => undefined);
          if (!user?.isActive || (current.sessionId !== null && !user.sessionAlive)) return handle.end();
          current = { ...current, role: user.role, systemIds: user.systemIds };
          if (!closed) res.write(': ping\n\n');
        })();
      }, heartbeatMs);

      res.write(`retry: ${EVENTS_RETRY_MS}\n\n`);
      try {
        if (lastEventId !== undefined) {
          for (const e of await repo.after(lastEventId, systemScope(current))) send(e);
        }
      } finally {
        replaying = false;
        for (const e of queue.splice(0)) send(e);
      }
      if (Date.now() - lastPrune > 3_600_000) {
        lastPrune = Date.now();
        await repo.prune(EVENTS_RETENTION_DAYS).catch(() => undefined);
      }
    },

    /** Ends every open stream (app shutdown): clients reconnect to another instance. */
    closeAll(): void {
      for (const s of [...streams]) s.end();
    },

    get openStreams(): number {
      return streams.size;
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
