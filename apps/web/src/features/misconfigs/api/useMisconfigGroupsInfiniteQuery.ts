import { MISCONFIG_GROUPS_PAGE_SIZE, MisconfigGroupPageSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { misconfigKeys } from './misconfigKeys.ts';

/**
 * The recommendations grouped by title (GET /soc/misconfigs/groups/), paged by `page` and keyed
 * by the filters; the groups have one order (open first), so the list's ordering is not sent.
 */
export function useMisconfigGroupsInfiniteQuery(filters: URLSearchParams) {
  const query = new URLSearchParams(filters);
  query.delete('ordering');
  const key = query.toString();
  return useInfiniteQuery({
    queryKey: misconfigKeys.groups(key),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/misconfigs/groups/', {
        schema: MisconfigGroupPageSchema,
        query: {
          ...Object.fromEntries(new URLSearchParams(key)),
          page: pageParam,
          page_size: MISCONFIG_GROUPS_PAGE_SIZE,
        },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.next === null ? undefined : lastParam + 1),
  });
}
