import { IncidentCardSchema, type IncidentPriority } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { usePutCard } from './usePutCard.ts';
import '../i18n/texts.ts';

/** Changes an incident's priority (PATCH /soc/incs/{key}/ {priority}); the answer is the card. Failures are toasted. */
export function usePriorityMutation(key: number) {
  const { t } = useTranslation();
  const putCard = usePutCard(key);
  return useMutation({
    mutationFn: (priority: IncidentPriority) =>
      apiRequest(`/soc/incs/${key}/`, {
        method: 'PATCH',
        body: { priority },
        schema: IncidentCardSchema,
        errorMessage: t('incidentPage.priority.failed'),
      }),
    onSuccess: (card) => putCard(card),
  });
}
