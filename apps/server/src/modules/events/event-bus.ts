import { INBOX_UPDATED_EVENT } from '@soc/contracts';
import type { Database } from '../../db/client.ts';

/** The channel that the `events_publish` trigger notifies on (migration of issue 13). */
export const EVENTS_CHANNEL = 'soc_events';

/** One events row as published. */
export interface StoredEvent {
  id: number;
  type: string;
  systemIds: number[];
  incidentKey: number | null;
  objectId: string;
  data: Record<string, unknown>;
  /** Milliseconds. */
  created: number;
}

export type EventListener = (event: StoredEvent) => void;

/**
 * A user's notification centre changed (issue 40): items arrived or were read. Published on the
 * events channel without an events row (`inboxSignalSql`), so it is never replayed, claimed or
 * sent to webhooks, and the bus hands it to its signal listeners only, not to the caches.
 */
export const INBOX_SIGNAL = INBOX_UPDATED_EVENT;

export type InboxListener = (userId: number) => void;

/** Told `false` when events may have been missed (the channel's connection is gone), `true` once it listens again. */
export type LiveListener = (live: boolean) => void;

/**
 * Delivers every event committed by any instance to this instance's listeners. Events are
 * written by triggers and published with NOTIFY, so the bus itself never publishes: whoever
 * changes an incident, comment or report (routes, the analyst API, jobs, another instance)
 * reaches every connected client.
 */
export interface EventBus {
  start(): Promise<void>;
  subscribe(listener: EventListener): () => void;
  /** Follows the INBOX_SIGNAL of every user (a missed one is made up for by the client's refetch on reconnect). */
  subscribeInbox(listener: InboxListener): () => void;
  /** Follows whether every committed event reaches this instance; called at once with the current state. */
  onLive(listener: LiveListener): () => void;
  close(): Promise<void>;
}

/** Parses a NOTIFY payload of `events_publish`; null for anything else. */
export function parseEventPayload(payload: string): StoredEvent | null {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown>;
    if (typeof raw.id !== 'number' || typeof raw.type !== 'string') return null;
    return {
      id: raw.id,
      type: raw.type,
      systemIds: Array.isArray(raw.system_ids) ? raw.system_ids.map(Number) : [],
      incidentKey:
        raw.incident_key === null || raw.incident_key === undefined ? null : Number(raw.incident_key),
      objectId: typeof raw.object_id === 'string' ? raw.object_id : '',
      data: raw.data && typeof raw.data === 'object' ? (raw.data as Record<string, unknown>) : {},
      created: Number(raw.created),
    };
  } catch {
    return null;
  }
}

/** The stored events as the bus reads them back after a reconnect (the events repository). */
export interface EventReplay {
  /** The newest stored event's id (0: none): where this instance's delivery starts. */
  newestId(): Promise<number>;
  /** Events after `afterId`, oldest first, a page at a time (of the last minutes). */
  after(afterId: number): Promise<StoredEvent[]>;
}

/** Pages of missed events read after a reconnect at most (the replay reads 200 a page, of the last minutes). */
const CATCH_UP_MAX_PAGES = 50;

/**
 * The bus over PostgreSQL LISTEN/NOTIFY (PGlite delivers its own notifications the same way).
 * When the LISTEN connection comes back after a loss, `replay` (the `events` rows) delivers what
 * was committed meanwhile before the bus says it is live again: open streams and caches see every
 * event of the last minutes exactly as if the connection had never gone. Events seen during the
 * catch-up wait for it, so listeners get them in id order.
 */
export function createPgEventBus(
  database: Pick<Database, 'listen'>,
  log?: { error: (obj: object, msg: string) => void },
  replay?: EventReplay,
): EventBus {
  const listeners = new Set<EventListener>();
  const inboxListeners = new Set<InboxListener>();
  const liveListeners = new Set<LiveListener>();
  let live = false;
  /** Whether the channel is listened to right now (the bus turns live once caught up). */
  let listening = false;
  let everListened = false;
  /** The newest event delivered: a catch-up replays from it. */
  let lastId = 0;
  /** Events notified while a catch-up runs, delivered after it. */
  let held: StoredEvent[] | null = null;
  let catchingUp: Promise<void> = Promise.resolve();
  let stop: (() => Promise<void>) | undefined;
  const tell = <T>(set: Set<(value: T) => void>, value: T) => {
    for (const listener of set) {
      try {
        listener(value);
      } catch (err) {
        log?.error({ err: err instanceof Error ? err.message : String(err) }, 'event listener failed');
      }
    }
  };
  const setLive = (value: boolean) => {
    live = value;
    tell(liveListeners, value);
  };
  const deliver = (event: StoredEvent) => {
    if (event.id > lastId) lastId = event.id;
    tell(listeners, event);
  };
  const catchUp = async () => {
    held = [];
    let after = lastId;
    const replayed = new Set<number>();
    try {
      for (let page = 0; page < CATCH_UP_MAX_PAGES && listening; page++) {
        const missed = await replay!.after(after);
        for (const event of missed) {
          replayed.add(event.id);
          deliver(event);
          after = Math.max(after, event.id);
        }
        if (missed.length === 0) break;
      }
    } catch (err) {
      // the database went again meanwhile: the next reconnect tries once more
      log?.error({ err: err instanceof Error ? err.message : String(err) }, 'event replay failed');
    } finally {
      const queued = held;
      held = null;
      for (const event of queued) if (!replayed.has(event.id)) deliver(event);
    }
    if (listening) setLive(true);
  };
  const onLive = (value: boolean) => {
    listening = value;
    if (!value) {
      if (live) setLive(false);
      return;
    }
    const resumed = everListened && replay !== undefined && lastId > 0;
    if (!everListened && replay) {
      // nothing before the start was missed: a later catch-up begins at the newest event now
      replay.newestId().then(
        (id) => (lastId = Math.max(lastId, id)),
        () => undefined,
      );
    }
    everListened = true;
    if (!resumed) {
      setLive(true);
      return;
    }
    catchingUp = catchingUp.then(catchUp);
  };
  return {
    async start() {
      if (stop) return;
      stop = await database.listen(
        EVENTS_CHANNEL,
        (payload) => {
          const event = parseEventPayload(payload);
          if (!event) return;
          if (event.type === INBOX_SIGNAL) {
            const userId = Number(event.data.user_id);
            if (Number.isInteger(userId)) tell(inboxListeners, userId);
            return;
          }
          if (held) held.push(event);
          else deliver(event);
        },
        onLive,
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeInbox(listener) {
      inboxListeners.add(listener);
      return () => inboxListeners.delete(listener);
    },
    onLive(listener) {
      liveListeners.add(listener);
      listener(live);
      return () => liveListeners.delete(listener);
    },
    async close() {
      listening = false;
      setLive(false);
      listeners.clear();
      inboxListeners.clear();
      liveListeners.clear();
      const s = stop;
      stop = undefined;
      await s?.();
      await catchingUp;
    },
  };
}
