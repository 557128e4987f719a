import { CommentListResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import '../i18n/texts.ts';
import '@/shared/ui/chat/i18n/texts.ts';

/**
 * All comments of an incident, oldest first (GET {incident}/comments/?no_page=true; the server
 * bounds the list). The panel searches them locally, so typing sends no requests.
 */
export function useCommentsQuery(key: number) {
  const { t } = useTranslation();
  return useQuery({
    queryKey: incidentPageKeys.comments(key),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/comments/`, {
        schema: CommentListResponseSchema,
        query: { no_page: true },
        signal,
        errorMessage: t('chat.loadFailed'),
      }),
    select: (page) => page.results,
  });
}
