import { AnalystIncidentCardSchema, type AnalystStatus } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import { usePutStaffCard } from './usePutStaffCard.ts';

/**
 * Completes or cancels an incident as the SOC (POST /analyst/incidents/{key}/status/ {status,
 * comment}). The answer is the staff card; the actions and the comments (the comment is stored
 * as the SOC's) refresh. Errors are left to the dialog.
 */
export function useStaffStatusMutation(key: number) {
  const putStaffCard = usePutStaffCard(key);
  return useMutation({
    mutationFn: (payload: AnalystStatus) =>
      apiRequest(`/analyst/incidents/${key}/status/`, {
        method: 'POST',
        body: payload,
        schema: AnalystIncidentCardSchema,
        notify: false,
      }),
    onSuccess: (card) => putStaffCard(card, [incidentPageKeys.actions(key), incidentPageKeys.comments(key)]),
  });
}
