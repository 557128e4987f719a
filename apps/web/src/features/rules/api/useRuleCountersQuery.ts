import { RuleCountersSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleFilterQuery } from '../lib/ruleQuery.ts';
import { ruleKeys } from './ruleKeys.ts';

/** The mini dashboard's counters for the list's filters (GET /soc/rules/analytics_counters/). */
export function useRuleCountersQuery(filters: URLSearchParams) {
  const key = filters.toString();
  return useQuery({
    queryKey: ruleKeys.counters(key),
    queryFn: ({ signal }) =>
      apiRequest('/soc/rules/analytics_counters/', {
        schema: RuleCountersSchema,
        query: ruleFilterQuery(new URLSearchParams(key)),
        signal,
        notify: false,
      }),
  });
}
