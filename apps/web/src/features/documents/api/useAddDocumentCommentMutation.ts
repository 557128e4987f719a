import { DocumentCommentSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/**
 * Adds a comment (POST /soc/{kind}/{id}/comments/, multipart with the form field `text`).
 * The comments and the lists (comment counts) refresh; errors are reported by the form.
 */
export function useAddDocumentCommentMutation(view: DocumentKindView, id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => {
      const body = new FormData();
      body.append('text', text);
      return apiUpload(`${view.apiPath}${id}/comments/`, {
        body,
        schema: DocumentCommentSchema,
        notify: false,
      });
    },
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists(view.kind) });
      await queryClient.invalidateQueries({ queryKey: documentKeys.comments(view.kind, id) });
    },
  });
}
