import { ALERTS_PAGE_SIZE, AlertPageSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { alertApiQuery } from '../lib/alertListQuery.ts';
import { alertKeys } from './alertKeys.ts';

/** The alerts of the user's systems (GET /soc/alerts/), paged by `page`, keyed by the filters. */
export function useAlertsInfiniteQuery(filters: URLSearchParams) {
  const key = filters.toString();
  return useInfiniteQuery({
    queryKey: alertKeys.list(key),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/alerts/', {
        schema: AlertPageSchema,
        query: { ...alertApiQuery(new URLSearchParams(key)), page: pageParam, page_size: ALERTS_PAGE_SIZE },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.next === null ? undefined : lastParam + 1),
  });
}
