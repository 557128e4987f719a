import { CommentListResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { taskKeys } from './taskKeys.ts';
import '@/shared/ui/chat/i18n/texts.ts';

/** The chat of a task, oldest first (GET /soc/tasks/{id}/messages/?no_page=true; bounded by the server). */
export function useTaskMessagesQuery(id: number) {
  const { t } = useTranslation();
  return useQuery({
    queryKey: taskKeys.messages(id),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/tasks/${id}/messages/`, {
        schema: CommentListResponseSchema,
        query: { no_page: true },
        signal,
        errorMessage: t('chat.loadFailed'),
      }),
    select: (page) => page.results,
  });
}
