import type { TaskCreateFields } from '@soc/contracts';
import { TaskDetailSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, type UploadProgress } from '@/shared/api/index.ts';
import { taskKeys } from './taskKeys.ts';

export interface CreateTaskVariables {
  fields: TaskCreateFields;
  files: readonly File[];
  onProgress?: (progress: UploadProgress) => void;
}

/** Opens a task (POST /soc/tasks/, multipart with the files); the form shows errors. */
export function useCreateTaskMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, files, onProgress }: CreateTaskVariables) => {
      const form = new FormData();
      form.append('type', fields.type);
      form.append('system', String(fields.system));
      form.append('subject', fields.subject);
      form.append('description', fields.description);
      if (fields.priority) form.append('priority', fields.priority);
      for (const file of files) form.append('attachments', file, file.name);
      return apiUpload('/soc/tasks/', { body: form, schema: TaskDetailSchema, notify: false, onProgress });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.lists() }),
  });
}
