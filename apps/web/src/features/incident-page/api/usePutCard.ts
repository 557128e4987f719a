import type { IncidentCard } from '@soc/contracts';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentKeys } from '../../incidents/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/**
 * What a mutation whose answer is the incident card does on success: the card goes into the
 * cache as it is (no second GET of it), its copies in other languages go stale, the lists
 * refresh, and `alsoChanged` (what the change touched besides the card) is fetched again.
 * The answer is in the interface language: the request's `Accept-Language`.
 */
export function usePutCard(key: number) {
  const queryClient = useQueryClient();
  const language = useLanguage();
  return async (card: IncidentCard, alsoChanged: readonly QueryKey[] = []) => {
    await queryClient.invalidateQueries({ queryKey: incidentPageKeys.cards(key), refetchType: 'none' });
    queryClient.setQueryData(incidentPageKeys.card(key, language), card);
    void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
    await Promise.all(alsoChanged.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}
