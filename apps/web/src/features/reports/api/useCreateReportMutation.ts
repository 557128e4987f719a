import type { ReportCreate } from '@soc/contracts';
import { ReportCreateResponseSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

/** Orders a one-off report (POST /soc/reports/create/); the caller shows the `__all__` message on failure. */
export function useCreateReportMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportCreate) =>
      apiRequest('/soc/reports/create/', {
        method: 'POST',
        body,
        schema: ReportCreateResponseSchema,
        notify: false,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
  });
}
