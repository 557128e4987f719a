import { AUDIT_PAGE_SIZE, AuditListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { settingsKeys } from './settingsKeys.ts';

/** One page of GET /audit/ for the filters of the URL; a newer request aborts an older one. */
export function useAuditLogQuery(filters: URLSearchParams, page: number) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: settingsKeys.audit(filtersKey, page),
    queryFn: ({ signal }) =>
      apiRequest('/audit/', {
        schema: AuditListResponseSchema,
        query: { ...Object.fromEntries(new URLSearchParams(filtersKey)), page, page_size: AUDIT_PAGE_SIZE },
        signal,
        abortKey: 'audit-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
