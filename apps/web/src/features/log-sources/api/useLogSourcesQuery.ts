import { LOG_SOURCES_PAGE_SIZE, LogSourceListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { logSourceKeys } from './logSourceKeys.ts';

/** One page of GET /soc/logsources/?page_size=100 for the filters (and the tab's status). */
export function useLogSourcesQuery(filters: URLSearchParams, page: number) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: logSourceKeys.list(filtersKey, page),
    queryFn: ({ signal }) =>
      apiRequest('/soc/logsources/', {
        schema: LogSourceListResponseSchema,
        query: {
          ...Object.fromEntries(new URLSearchParams(filtersKey)),
          page,
          page_size: LOG_SOURCES_PAGE_SIZE,
        },
        signal,
        abortKey: 'logsources-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
