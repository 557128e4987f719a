import { INCIDENTS_PAGE_SIZE, QueueListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { queueApiQuery } from '../lib/queueListQuery.ts';
import { socQueueKeys } from './socQueueKeys.ts';

/**
 * The SLA states move with the clock, which no event reports (design §9): the open queue asks
 * again this often.
 */
export const QUEUE_REFRESH_MS = 60_000;

/**
 * The triage queue (GET /analyst/queue/), 40 per page by limit/offset, keyed by the sanitised
 * filters: a change of filters drops the old query's observer, which aborts its request.
 */
export function useQueueInfiniteQuery(filters: URLSearchParams) {
  const key = filters.toString();
  return useInfiniteQuery({
    queryKey: socQueueKeys.list(key),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/analyst/queue/', {
        schema: QueueListResponseSchema,
        query: { ...queueApiQuery(new URLSearchParams(key)), limit: INCIDENTS_PAGE_SIZE, offset: pageParam },
        signal,
        notify: false,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, _all, lastParam) =>
      last.next === null ? undefined : lastParam + INCIDENTS_PAGE_SIZE,
    refetchInterval: QUEUE_REFRESH_MS,
  });
}
