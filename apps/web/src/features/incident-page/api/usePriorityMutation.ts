import { IncidentCardSchema, type IncidentPriority } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../../shared/api/index.ts';
import { incidentKeys } from '../../incidents/api/incidentKeys.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/** Changes an incident's priority (PATCH /soc/incs/{key}/ {priority}); failures are toasted. */
export function usePriorityMutation(key: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (priority: IncidentPriority) =>
      apiRequest(`/soc/incs/${key}/`, {
        method: 'PATCH',
        body: { priority },
        schema: IncidentCardSchema,
        errorMessage: t('incidentPage.priority.failed'),
      }),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) });
    },
  });
}
