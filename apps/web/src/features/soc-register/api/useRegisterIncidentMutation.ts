import {
  AnalystIncidentCardSchema,
  IDEMPOTENCY_KEY_HEADER,
  type AnalystIncidentCreate,
} from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentKeys } from '../../incidents/index.ts';
import { socQueueKeys } from '../../soc-queue/index.ts';

export type RegisterIncidentInput = {
  payload: AnalystIncidentCreate;
  /** One per form: a double click or a retry answers the first incident again. */
  idempotencyKey: string;
};

/**
 * Registers an incident as the SOC (POST /analyst/incidents/ with an Idempotency-Key). Errors are
 * not toasted here: field messages belong under the fields, the form reports the rest. The lists
 * and the queue refresh on success.
 */
export function useRegisterIncidentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ payload, idempotencyKey }: RegisterIncidentInput) =>
      apiRequest('/analyst/incidents/', {
        method: 'POST',
        body: payload,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
        schema: AnalystIncidentCardSchema,
        notify: false,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: socQueueKeys.all });
    },
  });
}
