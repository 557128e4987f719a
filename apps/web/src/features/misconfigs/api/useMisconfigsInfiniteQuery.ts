import { MISCONFIGS_PAGE_SIZE, MisconfigPageSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { misconfigApiQuery } from '../lib/misconfigQuery.ts';
import { misconfigKeys } from './misconfigKeys.ts';

/**
 * The recommendations (GET /soc/misconfigs/) paged by `page`, keyed by the sanitised filters:
 * a change of filters aborts the older request, so a late answer never replaces a newer list.
 */
export function useMisconfigsInfiniteQuery(filters: URLSearchParams) {
  const key = filters.toString();
  return useInfiniteQuery({
    queryKey: misconfigKeys.list(key),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/misconfigs/', {
        schema: MisconfigPageSchema,
        query: {
          ...misconfigApiQuery(new URLSearchParams(key)),
          page: pageParam,
          page_size: MISCONFIGS_PAGE_SIZE,
        },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.next === null ? undefined : lastParam + 1),
  });
}
