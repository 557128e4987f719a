import type { LiveEvent, LiveEventType } from '@soc/contracts';
import { INBOX_UPDATED_EVENT, LIVE_EVENT_TYPES } from '@soc/contracts';
import type { StoredEvent } from './event-bus.ts';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The client's view of an event; null for internal events (e.g. `incident.sla_risk`). */
export function presentLiveEvent(e: StoredEvent): LiveEvent | null {
  if (!(LIVE_EVENT_TYPES as readonly string[]).includes(e.type)) return null;
  const type = e.type as LiveEventType;
  return {
    id: e.id,
    type,
    key: e.incidentKey,
    report_id: type === 'report.ready' ? Number(e.objectId) : null,
    status: str(e.data.status),
    previous_status: str(e.data.previous_status),
    from_soc: typeof e.data.from_soc === 'boolean' ? e.data.from_soc : null,
    summary: type === 'incident.created' ? str(e.data.summary) : null,
    reporter_id:
      type === 'incident.created' && typeof e.data.reporter_id === 'number' ? e.data.reporter_id : null,
    created: e.created,
  };
}

/** One server-sent event: `id`, `event` (the type) and the JSON `data` line. */
export const sseFrame = (event: LiveEvent): string =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** The signal that the user's notification centre changed (issue 40): no id, no object. */
export const inboxFrame = `event: ${INBOX_UPDATED_EVENT}\ndata: {}\n\n`;
