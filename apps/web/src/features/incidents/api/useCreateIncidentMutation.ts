import { IncidentListItemSchema, type IncidentCreate } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentKeys } from './incidentKeys.ts';

/**
 * Registers an incident (POST /soc/incs/). Errors are not toasted here: field messages belong
 * on the form, which reports the rest itself. Lists refresh on success, so the new incident
 * shows at the top of the default (newest first) order.
 */
export function useCreateIncidentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: IncidentCreate) =>
      apiRequest('/soc/incs/', {
        method: 'POST',
        body: payload,
        schema: IncidentListItemSchema,
        notify: false,
      }),
    // Not awaited: the caller goes on (toast, upload) while the list refreshes.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() }),
  });
}
