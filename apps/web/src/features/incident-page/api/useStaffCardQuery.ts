import { AnalystIncidentCardSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/**
 * The incident card as staff see it (GET /analyst/incidents/{key}/): the customer's card and the
 * SOC assignee. Only for staff (`enabled` comes from useIsStaff): customers get 403 there.
 */
export function useStaffCardQuery(key: number, enabled: boolean) {
  const language = useLanguage();
  return useQuery({
    queryKey: incidentPageKeys.staffCard(key, language),
    queryFn: ({ signal }) =>
      apiRequest(`/analyst/incidents/${key}/`, {
        schema: AnalystIncidentCardSchema,
        signal,
        notify: false,
      }),
    enabled,
  });
}
