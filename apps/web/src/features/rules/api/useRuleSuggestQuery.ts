import {
  RULE_SUGGEST_LIMIT,
  RuleServicesResponseSchema,
  RuleSuggestionsResponseSchema,
} from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleKeys } from './ruleKeys.ts';

/** Fields with server-side suggestions (product §B7: 7 items). */
export type RuleSuggestField = 'categories' | 'sensors' | 'sensor_types' | 'sensor_modules' | 'platforms';

/**
 * Filter suggestions for a (debounced) text. A failure yields an empty list (product §B8), which
 * the filter shows as its not-found text.
 */
export function useRuleSuggestQuery(field: RuleSuggestField, text: string, enabled: boolean) {
  return useQuery({
    queryKey: ruleKeys.suggest(field, text),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/rules/${field}/`, {
        schema: RuleSuggestionsResponseSchema,
        query:
          field === 'categories'
            ? { limit: RULE_SUGGEST_LIMIT, search: text || undefined }
            : { page_size: RULE_SUGGEST_LIMIT, name__icontains: text || undefined },
        signal,
        notify: false,
      })
        .then((answer) => answer.results)
        .catch((error: unknown) => {
          if (signal.aborted) throw error;
          return [] as string[];
        }),
    enabled,
    staleTime: 60_000,
  });
}

/** The service levels whose rules the user sees: the choices of the available-for filter (product §A6). */
export function useRuleServicesQuery() {
  return useQuery({
    queryKey: ruleKeys.services(),
    queryFn: ({ signal }) =>
      apiRequest('/soc/rules/services/', { schema: RuleServicesResponseSchema, signal, notify: false }).then(
        (answer) => answer.results,
      ),
    staleTime: 5 * 60_000,
  });
}
