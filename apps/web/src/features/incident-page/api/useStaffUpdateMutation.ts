import { AnalystIncidentCardSchema, type AnalystIncidentUpdate } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { usePutStaffCard } from './usePutStaffCard.ts';

/**
 * Changes incident fields as staff (PATCH /analyst/incidents/{key}/, only the fields given); the
 * answer is the staff card. Errors are left to the caller (field messages under the fields).
 */
export function useStaffUpdateMutation(key: number) {
  const putStaffCard = usePutStaffCard(key);
  return useMutation({
    mutationFn: (changes: AnalystIncidentUpdate) =>
      apiRequest(`/analyst/incidents/${key}/`, {
        method: 'PATCH',
        body: changes,
        schema: AnalystIncidentCardSchema,
        notify: false,
      }),
    onSuccess: (card) => putStaffCard(card),
  });
}
