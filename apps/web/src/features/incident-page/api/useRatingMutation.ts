import { IncidentCardSchema, type RatingPayload } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { usePutCard } from './usePutCard.ts';

/** Rates a handled incident once (POST {incident}/add_rating/); the answer is the card; the form reports errors. */
export function useRatingMutation(key: number) {
  const putCard = usePutCard(key);
  return useMutation({
    mutationFn: (payload: RatingPayload) =>
      apiRequest(`/soc/incs/${key}/add_rating/`, {
        method: 'POST',
        body: payload,
        schema: IncidentCardSchema,
        notify: false,
      }),
    onSuccess: (card) => putCard(card),
  });
}
