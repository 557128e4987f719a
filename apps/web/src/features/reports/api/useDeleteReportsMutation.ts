import { ReportDeleteResponseSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/** Deletes reports (POST /soc/reports/delete_multiple/ {ids}); the list shows its own error text. */
export function useDeleteReportsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) =>
      apiRequest('/soc/reports/delete_multiple/', {
        method: 'POST',
        body: { ids },
        schema: ReportDeleteResponseSchema,
        notify: false,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
  });
}
