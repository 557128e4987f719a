import { StaffListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/** How many staff users the SOC assignee select offers per search. */
export const STAFF_SUGGESTION_LIMIT = 20;

/**
 * The provider's staff to assign an incident to (GET /analyst/staff/?search=&limit=). `search` is
 * debounced by the caller and trimmed here; only fetched while the select is open.
 */
export function useStaffListQuery(search: string, enabled: boolean) {
  const text = search.trim();
  return useQuery({
    queryKey: incidentPageKeys.staff(text),
    queryFn: ({ signal }) =>
      apiRequest('/analyst/staff/', {
        schema: StaffListResponseSchema,
        query: { limit: STAFF_SUGGESTION_LIMIT, search: text || undefined },
        signal,
        notify: false,
      }),
    select: (page) => page.results,
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
