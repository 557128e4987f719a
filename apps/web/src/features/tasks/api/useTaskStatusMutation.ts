import type { TaskStatus } from '@soc/contracts';
import { TaskDetailSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { taskKeys } from './taskKeys.ts';
import '../i18n/texts.ts';

/** Sets a task's status (POST /soc/tasks/{id}/status/); failures are toasted. */
export function useTaskStatusMutation(id: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: TaskStatus) =>
      apiRequest(`/soc/tasks/${id}/status/`, {
        method: 'POST',
        body: { status },
        schema: TaskDetailSchema,
        errorMessage: t('tasks.page.statusFailed'),
      }),
    onSuccess: (task) => {
      queryClient.setQueryData(taskKeys.detail(id), task);
      void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
    },
  });
}
