import { RULES_SUGGESTION_PAGE_SIZE, RuleListResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleKeys } from './ruleKeys.ts';

/** Rule suggestions of the rules filter: GET /soc/rules/?page_size=2000&search={text}. */
export function useRuleNamesQuery(text: string, enabled: boolean) {
  return useQuery({
    queryKey: ruleKeys.suggest('rules', text),
    queryFn: ({ signal }) =>
      apiRequest('/soc/rules/', {
        schema: RuleListResponseSchema,
        query: { page_size: RULES_SUGGESTION_PAGE_SIZE, search: text },
        signal,
        notify: false,
      })
        .then((answer) => answer.results)
        .catch((error: unknown) => {
          if (signal.aborted) throw error;
          return [];
        }),
    enabled,
    staleTime: 60_000,
  });
}
