import {
  AnalystAlertsBulkResultSchema,
  IDEMPOTENCY_KEY_HEADER,
  type AnalystAlertsBulk,
} from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

export type AddAlertsInput = {
  body: AnalystAlertsBulk;
  /** One per form: a retry after a lost answer adds nothing twice. */
  idempotencyKey: string;
};

/**
 * Adds alerts to an incident as staff (POST /analyst/incidents/{key}/alerts/, idempotent by alert
 * uuid). Errors are left to the caller. The incident's queries (its alerts, its card: the call
 * touches the incident) refresh on success.
 */
export function useAddAlertsMutation(key: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: AddAlertsInput) =>
      apiRequest(`/analyst/incidents/${key}/alerts/`, {
        method: 'POST',
        body,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
        schema: AnalystAlertsBulkResultSchema,
        notify: false,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) }),
  });
}
