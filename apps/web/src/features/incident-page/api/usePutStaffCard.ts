import type { AnalystIncidentCard } from '@soc/contracts';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import { usePutCard } from './usePutCard.ts';

/**
 * What a staff mutation whose answer is the staff card does on success: the staff card goes into
 * its cache, the customer card (the same fields without the SOC assignee) into the page's, as
 * usePutCard does for the customer's changes.
 */
export function usePutStaffCard(key: number) {
  const queryClient = useQueryClient();
  const language = useLanguage();
  const putCard = usePutCard(key);
  return async (card: AnalystIncidentCard, alsoChanged: readonly QueryKey[] = []) => {
    await queryClient.invalidateQueries({ queryKey: incidentPageKeys.staffCards(key), refetchType: 'none' });
    queryClient.setQueryData(incidentPageKeys.staffCard(key, language), card);
    const { soc_assignee: _socAssignee, ...customerCard } = card;
    await putCard(customerCard, alsoChanged);
  };
}
