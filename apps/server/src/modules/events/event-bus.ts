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

/** The bus over PostgreSQL LISTEN/NOTIFY (PGlite delivers its own notifications the same way). */
export function createPgEventBus(
  database: Pick<Database, 'listen'>,
  log?: { error: (obj: object, msg: string) => void },
): EventBus {
  const listeners = new Set<EventListener>();
  const liveListeners = new Set<LiveListener>();
  let live = false;
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
  return {
    async start() {
      if (stop) return;
      stop = await database.listen(
        EVENTS_CHANNEL,
        (payload) => {
          const event = parseEventPayload(payload);
          if (event) tell(listeners, event);
        },
        setLive,
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onLive(listener) {
      liveListeners.add(listener);
      listener(live);
      return () => liveListeners.delete(listener);
    },
    async close() {
      setLive(false);
      listeners.clear();
      liveListeners.clear();
      const s = stop;
      stop = undefined;
      await s?.();
    },
  };
}
