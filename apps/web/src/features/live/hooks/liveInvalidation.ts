import type { LiveEvent } from '@soc/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { dashboardKeys } from '../../dashboard/index.ts';
import { incidentPageKeys } from '../../incident-page/index.ts';
import { incidentKeys } from '../../incidents/index.ts';
import { reportKeys } from '../../reports/index.ts';
import { socQueueKeys } from '../../soc-queue/index.ts';

/**
 * Refreshes the cached lists an event touches: open screens refetch at once, others when they
 * are next shown. Only active queries refetch now, so an event costs at most a few requests.
 * The SOC's queue hears every change of an incident and every comment (design §9): each may move
 * an incident into or out of it; a customer's client has no queue query, so it costs them nothing.
 */
export function invalidateForEvent(client: QueryClient, event: LiveEvent): void {
  const invalidate = (queryKey: readonly unknown[]) => void client.invalidateQueries({ queryKey });
  switch (event.type) {
    case 'incident.created':
      invalidate(incidentKeys.lists());
      invalidate(socQueueKeys.all);
      invalidate([...dashboardKeys.all, 'newest']);
      break;
    case 'incident.updated':
      invalidate(incidentKeys.lists());
      invalidate(socQueueKeys.all);
      if (event.key !== null) invalidate(incidentPageKeys.incident(event.key));
      break;
    case 'comment.created':
      invalidate(socQueueKeys.all);
      if (event.key !== null) invalidate(incidentPageKeys.incident(event.key));
      break;
    case 'report.ready':
      invalidate(reportKeys.lists());
      break;
  }
}
