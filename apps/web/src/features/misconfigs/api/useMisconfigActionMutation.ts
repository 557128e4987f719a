import type { MisconfigAction } from '@soc/contracts';
import { MisconfigDetailSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from '../../incident-page/index.ts';
import { misconfigKeys } from './misconfigKeys.ts';

export interface MisconfigActionVariables {
  action: MisconfigAction;
  comment: string;
}

/**
 * Marks a recommendation fixed, accepts its risk or reopens it (POST /soc/misconfigs/{id}/{action}/).
 * The dialog shows errors; the list and the incidents' tabs refresh.
 */
export function useMisconfigActionMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, comment }: MisconfigActionVariables) =>
      apiRequest(`/soc/misconfigs/${id}/${action}/`, {
        method: 'POST',
        body: { comment },
        schema: MisconfigDetailSchema,
        notify: false,
      }),
    onSuccess: (detail) => {
      queryClient.setQueryData(misconfigKeys.detail(id), detail);
      void queryClient.invalidateQueries({ queryKey: misconfigKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: incidentPageKeys.all });
    },
  });
}
