import { IncidentCardSchema, type AssignPayload } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { usePutCard } from './usePutCard.ts';

/**
 * Assigns the incident to a user of its system, or clears the assignee
 * (POST /soc/incs/{key}/assign_to_customer/); the answer is the card. The caller shows the toasts of product §A8.
 */
export function useAssignMutation(key: number) {
  const putCard = usePutCard(key);
  return useMutation({
    mutationFn: (payload: AssignPayload) =>
      apiRequest(`/soc/incs/${key}/assign_to_customer/`, {
        method: 'POST',
        body: payload,
        schema: IncidentCardSchema,
        notify: false,
      }),
    onSuccess: (card) => putCard(card),
  });
}
