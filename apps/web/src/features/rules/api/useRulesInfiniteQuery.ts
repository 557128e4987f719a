import { RULES_PAGE_SIZE, RuleListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleApiQuery } from '../lib/ruleQuery.ts';
import { ruleKeys } from './ruleKeys.ts';

/**
 * The rule list (GET /soc/rules/) paged by `page`, keyed by the sanitised filters: a change of
 * filters drops the old observer and TanStack Query aborts its request, so a late answer never
 * replaces a newer list.
 */
export function useRulesInfiniteQuery(filters: URLSearchParams) {
  const key = filters.toString();
  return useInfiniteQuery({
    queryKey: ruleKeys.list(key),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/rules/', {
        schema: RuleListResponseSchema,
        query: { ...ruleApiQuery(new URLSearchParams(key)), page: pageParam, page_size: RULES_PAGE_SIZE },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.next === null ? undefined : lastParam + 1),
  });
}
