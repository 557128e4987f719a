import type { AssignPayload } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../shared/api/index.ts';
import { incidentKeys } from '../../incidents/api/incidentKeys.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/**
 * Assigns the incident to a user of its system, or clears the assignee
 * (POST /soc/incs/{key}/assign_to_customer/). The caller shows the toasts of spec 000 §8.
 */
export function useAssignMutation(key: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: AssignPayload) =>
      apiRequest(`/soc/incs/${key}/assign_to_customer/`, {
        method: 'POST',
        body: payload,
        // The card is fetched again; the answer's body is not used.
        schema: z.unknown(),
        notify: false,
      }),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) });
    },
  });
}
