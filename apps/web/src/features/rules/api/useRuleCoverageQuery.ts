import { RuleCoverageSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleFilterQuery } from '../lib/ruleQuery.ts';
import { ruleKeys } from './ruleKeys.ts';

/** The MITRE matrix with rule counts for the filters (GET /soc/rules/coverage/). */
export function useRuleCoverageQuery(filters: URLSearchParams, enabled = true) {
  const key = filters.toString();
  return useQuery({
    queryKey: ruleKeys.coverage(key),
    queryFn: ({ signal }) =>
      apiRequest('/soc/rules/coverage/', {
        schema: RuleCoverageSchema,
        query: ruleFilterQuery(new URLSearchParams(key)),
        signal,
        notify: false,
      }),
    enabled,
    staleTime: 60_000,
  });
}
