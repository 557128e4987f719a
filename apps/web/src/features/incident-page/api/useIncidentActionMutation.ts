import type { ClosePayload, ConfirmPayload } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { incidentKeys } from '../../incidents/api/incidentKeys.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import { z } from 'zod';

/** The workflow actions a customer takes from the incident page (spec 000 §4). */
export type CustomerAction = 'confirm' | 'close' | 'reopen';

/** One action with its payload (spec 000 §3: close needs a resolution). */
export type IncidentActionVariables =
  { action: 'confirm' | 'reopen'; payload: ConfirmPayload } | { action: 'close'; payload: ClosePayload };

/** The answer's body is not used: the card is fetched again. */
const ActionAnswerSchema = z.unknown();

/**
 * POST /soc/incs/{key}/{confirm|close|reopen}/. Errors are left to the dialog (field messages
 * go under the fields, the rest into the toast of spec 000 §8). On success the card, its
 * actions, its comments (the action's comment is stored as one) and the lists refresh.
 */
export function useIncidentActionMutation(key: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, payload }: IncidentActionVariables) =>
      apiRequest(`/soc/incs/${key}/${action}/`, {
        method: 'POST',
        body: payload,
        schema: ActionAnswerSchema,
        notify: false,
      }),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) });
    },
  });
}
