import { IncidentCardSchema, type ClosePayload, type ConfirmPayload } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import { usePutCard } from './usePutCard.ts';

/** The workflow actions a customer takes from the incident page (product §A4). */
export type CustomerAction = 'confirm' | 'close' | 'reopen';

/** One action with its payload (product §A3: close needs a resolution). */
export type IncidentActionVariables =
  { action: 'confirm' | 'reopen'; payload: ConfirmPayload } | { action: 'close'; payload: ClosePayload };

/**
 * POST /soc/incs/{key}/{confirm|close|reopen}/. Errors are left to the dialog (field messages
 * go under the fields, the rest into the toast of product §A8). The answer is the card,
 * put into the cache as it is; its actions, its comments (the action's comment is stored as
 * one) and the lists refresh.
 */
export function useIncidentActionMutation(key: number) {
  const putCard = usePutCard(key);
  return useMutation({
    mutationFn: ({ action, payload }: IncidentActionVariables) =>
      apiRequest(`/soc/incs/${key}/${action}/`, {
        method: 'POST',
        body: payload,
        schema: IncidentCardSchema,
        notify: false,
      }),
    onSuccess: (card) => putCard(card, [incidentPageKeys.actions(key), incidentPageKeys.comments(key)]),
  });
}
