import { IncidentListResponseSchema, RULE_INCIDENTS_FIRST_PAGE, RULE_INCIDENTS_PAGE } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { ruleKeys } from './ruleKeys.ts';

/**
 * Incidents of a rule (GET /soc/incs/?rule_id__in={id}): the first page from a constant, then 10
 * a page (product §B7, §B9), by limit/offset.
 */
export function useRuleIncidentsInfiniteQuery(ruleId: number, enabled: boolean) {
  const language = useLanguage();
  return useInfiniteQuery({
    queryKey: [...ruleKeys.incidents(ruleId), language],
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/incs/', {
        schema: IncidentListResponseSchema,
        query: {
          rule_id__in: ruleId,
          language,
          offset: pageParam,
          limit: pageParam === 0 ? RULE_INCIDENTS_FIRST_PAGE : RULE_INCIDENTS_PAGE,
        },
        signal,
        notify: false,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.results.length, 0);
      return last.next === null || loaded >= last.total ? undefined : loaded;
    },
    enabled,
  });
}
