import { CommentSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '@/shared/api/index.ts';
import type { ChatMessageDraft } from '@/shared/ui/chat/ChatComposer.tsx';
import { taskKeys } from './taskKeys.ts';

/**
 * Writes in a task's chat (POST /soc/tasks/{id}/messages/, multipart: body, attachments). A
 * message can move the status, so the task and the list refresh too. Errors are toasted by the
 * composer.
 */
export function useAddTaskMessageMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, files, onProgress }: ChatMessageDraft) => {
      const form = new FormData();
      form.append('body', body);
      for (const file of files) form.append('attachments', file, file.name);
      return apiUpload(`/soc/tasks/${id}/messages/`, {
        body: form,
        schema: CommentSchema,
        notify: false,
        onProgress,
      });
    },
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: taskKeys.task(id) });
    },
  });
}
