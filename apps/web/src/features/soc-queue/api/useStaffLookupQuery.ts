import { StaffListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { socQueueKeys } from './socQueueKeys.ts';

/** The provider's staff to pick from (GET /analyst/staff/?search=); `search` is already debounced. */
export function useStaffLookupQuery(search: string, enabled = true) {
  const text = search.trim();
  return useQuery({
    queryKey: socQueueKeys.staff(text),
    queryFn: ({ signal }) =>
      apiRequest('/analyst/staff/', {
        schema: StaffListResponseSchema,
        query: { search: text || undefined },
        signal,
        notify: false,
      }),
    select: (page) => page.results,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    enabled,
  });
}
