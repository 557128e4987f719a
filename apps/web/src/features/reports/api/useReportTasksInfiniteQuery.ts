import { REPORT_TASKS_PAGE_SIZE, ReportTaskListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/** Report schedules (GET /soc/report_tasks/, then page={nextPage}); notifications suppressed (product §B7). */
export function useReportTasksInfiniteQuery() {
  return useInfiniteQuery({
    queryKey: reportKeys.tasks(),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/report_tasks/', {
        schema: ReportTaskListResponseSchema,
        query: { page: pageParam, page_size: REPORT_TASKS_PAGE_SIZE },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _all, lastPageParam) =>
      lastPage.next === null ? undefined : lastPageParam + 1,
  });
}
