import { RuleDetailSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleKeys } from './ruleKeys.ts';

/** A rule with its imported YAML (GET /soc/rules/{id}/); a missing rule stays missing, so no retries. */
export function useRuleQuery(id: number) {
  return useQuery({
    queryKey: ruleKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/rules/${id}/`, { schema: RuleDetailSchema, signal, notify: false }),
    retry: false,
  });
}
