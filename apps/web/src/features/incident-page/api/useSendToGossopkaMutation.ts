import { GossopkaStatusSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import '../i18n/texts.ts';

/**
 * Sends the incident to the national centre (POST {incident}/manually_send_to_gossopka/); the
 * answer is the new sending state. Failures show the toast of product §A8.
 */
export function useSendToGossopkaMutation(key: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(`/soc/incs/${key}/manually_send_to_gossopka/`, {
        method: 'POST',
        body: {},
        schema: GossopkaStatusSchema,
        errorMessage: t('incidentPage.gossopka.failed'),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) }),
  });
}
