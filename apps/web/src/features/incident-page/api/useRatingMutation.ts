import type { RatingPayload } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/** Rates a handled incident once (POST {incident}/add_rating/); the form reports errors. */
export function useRatingMutation(key: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: RatingPayload) =>
      apiRequest(`/soc/incs/${key}/add_rating/`, {
        method: 'POST',
        body: payload,
        // The card is fetched again; the answer's body is not used.
        schema: z.unknown(),
        notify: false,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) }),
  });
}
