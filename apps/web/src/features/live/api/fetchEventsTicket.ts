import { EventsTicketSchema } from '@soc/contracts';
import type { EventsTicket } from '@soc/contracts';
import { apiRequest } from '@/shared/api/index.ts';

/** POST /events/ticket/: a short-lived ticket for one event stream (EventSource sends no headers). */
export function fetchEventsTicket(signal?: AbortSignal): Promise<EventsTicket> {
  return apiRequest('/events/ticket/', { method: 'POST', schema: EventsTicketSchema, notify: false, signal });
}
