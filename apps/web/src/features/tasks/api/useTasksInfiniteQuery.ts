import { TASKS_PAGE_SIZE, TaskListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { taskApiQuery } from '../lib/taskQuery.ts';
import { taskKeys } from './taskKeys.ts';

/**
 * The task list (GET /soc/tasks/) paged by `page`, keyed by the sanitised filters: a change of
 * filters drops the old observer and TanStack Query aborts its request, so a late answer never
 * replaces a newer list.
 */
export function useTasksInfiniteQuery(filters: URLSearchParams) {
  const key = filters.toString();
  return useInfiniteQuery({
    queryKey: taskKeys.list(key),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/tasks/', {
        schema: TaskListResponseSchema,
        query: { ...taskApiQuery(new URLSearchParams(key)), page: pageParam, page_size: TASKS_PAGE_SIZE },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.next === null ? undefined : lastParam + 1),
  });
}
