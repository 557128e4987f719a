import { EVENTS_RETRY_MS, INBOX_UPDATED_EVENT, LIVE_EVENT_TYPES, LiveEventSchema } from '@soc/contracts';
import type { LiveEvent } from '@soc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiUrl } from '@/shared/api/index.ts';
import { fetchEventsTicket } from '../api/fetchEventsTicket.ts';
import { invalidateForEvent } from './liveInvalidation.ts';

/** What the app does with each event besides refreshing caches (e.g. the 'new incident' toast). */
export type LiveEventHandler = (event: LiveEvent) => void;

/**
 * Keeps one server-sent event stream open while the user is signed in (mounted once, in the
 * shell). Lists refresh through their query cache; the 30 s polls stay as the fallback. A lost
 * stream is reopened after EVENTS_RETRY_MS with a new ticket, asking for what it missed.
 * `onInboxUpdated` hears the user's notification-centre signal (and a reopened stream), so that
 * this feature needs nothing of the notification centre's.
 */
export function useLiveEvents(onEvent?: LiveEventHandler, onInboxUpdated?: () => void): void {
  const client = useQueryClient();
  const handler = useRef(onEvent);
  const inboxHandler = useRef(onInboxUpdated);
  useEffect(() => {
    handler.current = onEvent;
    inboxHandler.current = onInboxUpdated;
  }, [onEvent, onInboxUpdated]);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastId: number | undefined;
    let stopped = false;
    const controller = new AbortController();

    const receive = (message: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      const parsed = LiveEventSchema.safeParse(data);
      if (!parsed.success) return;
      lastId = Math.max(lastId ?? 0, parsed.data.id);
      invalidateForEvent(client, parsed.data);
      handler.current?.(parsed.data);
    };

    let reconnected = false;
    const refreshInbox = () => inboxHandler.current?.();

    const retry = () => {
      reconnected = true;
      source?.close();
      source = null;
      if (!stopped) timer = setTimeout(() => void connect(), EVENTS_RETRY_MS);
    };

    const connect = async () => {
      try {
        const { ticket } = await fetchEventsTicket(controller.signal);
        if (stopped) return;
        source = new EventSource(apiUrl('/events/', { ticket, last_event_id: lastId }));
        for (const type of LIVE_EVENT_TYPES) source.addEventListener(type, receive);
        // the user's notification centre changed (in this tab, another one or by an event)
        source.addEventListener(INBOX_UPDATED_EVENT, refreshInbox);
        // a signal is not replayed: after a lost stream the bell asks again
        if (reconnected) source.onopen = refreshInbox;
        // the browser's own reconnect would reuse an expired ticket: reconnect with a new one
        source.onerror = retry;
      } catch {
        retry();
      }
    };
    void connect();
    return () => {
      stopped = true;
      controller.abort();
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [client]);
}
