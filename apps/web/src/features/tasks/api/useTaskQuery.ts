import { TaskDetailSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { taskKeys } from './taskKeys.ts';

/** One task (GET /soc/tasks/{id}/); the page shows its own error state. */
export function useTaskQuery(id: number) {
  return useQuery({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/tasks/${id}/`, { schema: TaskDetailSchema, signal, notify: false }),
    retry: false,
  });
}
