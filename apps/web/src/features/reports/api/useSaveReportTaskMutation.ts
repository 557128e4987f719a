import type { ReportTaskCreate, ReportTaskUpdate } from '@soc/contracts';
import { ReportTaskSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/** Creates (POST /soc/report_tasks/) or changes (PATCH /soc/report_tasks/{id}/) a schedule. */
export function useSaveReportTaskMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: null; body: ReportTaskCreate } | { id: number; body: ReportTaskUpdate }) =>
      input.id === null
        ? apiRequest('/soc/report_tasks/', {
            method: 'POST',
            body: input.body,
            schema: ReportTaskSchema,
            notify: false,
          })
        : apiRequest(`/soc/report_tasks/${input.id}/`, {
            method: 'PATCH',
            body: input.body,
            schema: ReportTaskSchema,
            notify: false,
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.tasks() }),
  });
}
