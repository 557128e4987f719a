import { InboxReadResponseSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { inboxKeys } from './inboxKeys.ts';

/**
 * POST …/inbox/{id}/read/ (an item) or …/inbox/read_all/ with `up_to` (every item up to the
 * newest shown); the answer is the new unread count, and the list refetches.
 */
export function useMarkInboxReadMutation() {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (target: { id: number } | { upTo: number }) =>
      'id' in target
        ? apiRequest(`/notifications/inbox/${target.id}/read/`, {
            method: 'POST',
            schema: InboxReadResponseSchema,
            errorMessage: t('inbox.markFailed'),
          })
        : apiRequest('/notifications/inbox/read_all/', {
            method: 'POST',
            body: { up_to: target.upTo },
            schema: InboxReadResponseSchema,
            errorMessage: t('inbox.markFailed'),
          }),
    onSuccess: (count) => {
      client.setQueryData(inboxKeys.count(), count);
      void client.invalidateQueries({ queryKey: inboxKeys.lists() });
    },
  });
}
