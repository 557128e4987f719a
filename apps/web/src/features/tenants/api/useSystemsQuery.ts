import { SYSTEMS_PAGE_SIZE, SystemListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { tenantKeys } from './tenantKeys.ts';

/**
 * One page of the systems table (GET /soc/systems/) for the filters of the URL. A newer
 * request supersedes (aborts) an older one, so a late answer never replaces a newer table.
 */
export function useSystemsQuery(filters: URLSearchParams, page: number) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: [...tenantKeys.list(filtersKey), page],
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/', {
        schema: SystemListResponseSchema,
        query: { ...Object.fromEntries(new URLSearchParams(filtersKey)), page, page_size: SYSTEMS_PAGE_SIZE },
        signal,
        abortKey: 'tenants-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
