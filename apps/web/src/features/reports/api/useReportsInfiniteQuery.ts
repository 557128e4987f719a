import { REPORTS_PAGE_SIZE, ReportListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/**
 * The report files (GET /soc/reports/) with the list's filters and ordering, in batches of 100
 * (product §B9) by `page`. A change of filters is a new key: the old request is aborted.
 */
export function useReportsInfiniteQuery(filters: URLSearchParams, pollMs: number | false = false) {
  const filtersKey = filters.toString();
  return useInfiniteQuery({
    queryKey: reportKeys.list(filtersKey),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/reports/', {
        schema: ReportListResponseSchema,
        query: {
          ...Object.fromEntries(new URLSearchParams(filtersKey)),
          page: pageParam,
          page_size: REPORTS_PAGE_SIZE,
        },
        signal,
        notify: false,
      }),
    // while ordered reports are being built, the list looks for them now and then
    refetchInterval: pollMs,
    initialPageParam: 1,
    getNextPageParam: (lastPage, _all, lastPageParam) =>
      lastPage.next === null ? undefined : lastPageParam + 1,
  });
}
