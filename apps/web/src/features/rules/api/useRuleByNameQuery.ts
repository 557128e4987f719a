import { joinList, RuleListResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleKeys } from './ruleKeys.ts';

/**
 * The rule that an incident names in `detection_rules` (GET /soc/rules/?name__in=…&page_size=1),
 * fetched once the popup opens; null when the catalogue visible to the user has no such rule.
 */
export function useRuleByNameQuery(name: string, enabled: boolean) {
  return useQuery({
    queryKey: ruleKeys.byName(name),
    queryFn: async ({ signal }) => {
      const page = await apiRequest('/soc/rules/', {
        schema: RuleListResponseSchema,
        // a comma inside a name is written as \, in a list parameter
        query: { name__in: joinList([name]), page: 1, page_size: 1 },
        signal,
        notify: false,
      });
      return page.results[0] ?? null;
    },
    enabled,
    staleTime: 5 * 60_000,
  });
}
