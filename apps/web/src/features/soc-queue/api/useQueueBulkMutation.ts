import { QueueBulkResultSchema, type QueueBulk } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { socQueueKeys } from './socQueueKeys.ts';

/**
 * One change to many incidents (POST /analyst/queue/bulk/); each is changed or refused on its
 * own, so the queue refetches whatever the answer says.
 */
export function useQueueBulkMutation() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QueueBulk) =>
      apiRequest('/analyst/queue/bulk/', {
        method: 'POST',
        body,
        schema: QueueBulkResultSchema,
        errorMessage: t('socQueue.bulk.failed'),
      }),
    onSettled: () => client.invalidateQueries({ queryKey: socQueueKeys.all }),
  });
}
