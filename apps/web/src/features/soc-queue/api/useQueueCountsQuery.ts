import { QueueCountsSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { queueCountsQuery } from '../lib/queueListQuery.ts';
import { socQueueKeys } from './socQueueKeys.ts';
import { QUEUE_REFRESH_MS } from './useQueueInfiniteQuery.ts';

/** What waits per tenant (GET /analyst/queue/counts/) under the queue's filters but the tenant. */
export function useQueueCountsQuery(filters: URLSearchParams) {
  const query = queueCountsQuery(filters);
  const key = new URLSearchParams(query).toString();
  return useQuery({
    queryKey: socQueueKeys.counts(key),
    queryFn: ({ signal }) =>
      apiRequest('/analyst/queue/counts/', { schema: QueueCountsSchema, query, signal, notify: false }),
    refetchInterval: QUEUE_REFRESH_MS,
  });
}
