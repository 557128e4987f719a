import { CommentSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, type UploadProgress } from '@/shared/api/index.ts';
import { incidentKeys } from '../../incidents/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/** What useAddCommentMutation sends. */
export interface AddCommentVariables {
  /** The text (Markdown); the server stores it as sanitised HTML. */
  body: string;
  issueCompleted: boolean;
  files: readonly File[];
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * Adds a comment (POST {incident}/comments/, multipart: body, issue_completed, attachments).
 * A comment can move the incident's status (product §A4), so the card and its actions refresh
 * too. Errors are toasted by the composer.
 */
export function useAddCommentMutation(key: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, issueCompleted, files, onProgress }: AddCommentVariables) => {
      const form = new FormData();
      form.append('body', body);
      form.append('issue_completed', String(issueCompleted));
      for (const file of files) form.append('attachments', file, file.name);
      return apiUpload(`/soc/incs/${key}/comments/`, {
        body: form,
        schema: CommentSchema,
        notify: false,
        onProgress,
      });
    },
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: incidentPageKeys.incident(key) });
    },
  });
}
