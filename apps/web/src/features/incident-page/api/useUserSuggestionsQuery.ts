import { USERS_SUGGESTION_LIMIT, UserListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/**
 * Active users of the incident's system as assignee suggestions
 * (GET /soc/users/?page_size=10&is_active=true&system__in={system}&search={text}). `search` is
 * debounced by the caller and trimmed here. A failure gives an empty list (product §A8).
 */
export function useUserSuggestionsQuery(systemId: number, search: string, enabled: boolean) {
  const text = search.trim();
  return useQuery({
    queryKey: incidentPageKeys.users(systemId, text),
    queryFn: async ({ signal }) => {
      try {
        const page = await apiRequest('/soc/users/', {
          schema: UserListResponseSchema,
          query: { page_size: USERS_SUGGESTION_LIMIT, is_active: true, system__in: systemId, search: text },
          signal,
          notify: false,
        });
        return page.results;
      } catch (error) {
        if (signal.aborted) throw error;
        return [];
      }
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}
