import { ReportRecipientRulesSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/**
 * Who may receive a report of the chosen systems (GET /soc/reports/recipient_rules/; none
 * chosen: all of the user's), asked while the form is open so that its recipients field says it.
 */
export function useRecipientRulesQuery(systems: readonly string[], enabled: boolean) {
  const sorted = [...systems].sort();
  return useQuery({
    queryKey: reportKeys.recipientRules(sorted),
    queryFn: ({ signal }) =>
      apiRequest('/soc/reports/recipient_rules/', {
        schema: ReportRecipientRulesSchema,
        query: sorted.length ? { systems: sorted.join(',') } : {},
        signal,
        notify: false,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
