import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/** Deletes a schedule (DELETE /soc/report_tasks/{id}/). */
export function useDeleteReportTaskMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/soc/report_tasks/${id}/`, { method: 'DELETE', schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.tasks() }),
  });
}
