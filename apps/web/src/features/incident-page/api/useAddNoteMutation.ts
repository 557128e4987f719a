import { AnalystNoteSchema } from '@soc/contracts';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import type { NotesPage } from './useNotesQuery.ts';

/**
 * Writes an internal note (POST /analyst/incidents/{key}/notes/ {body}); the answer is the note,
 * added at the end of the latest page shown (no second GET). Errors are toasted by the composer.
 */
export function useAddNoteMutation(key: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      apiRequest(`/analyst/incidents/${key}/notes/`, {
        method: 'POST',
        body: { body },
        schema: AnalystNoteSchema,
        notify: false,
      }),
    onSuccess: (note) => {
      const notesKey = incidentPageKeys.notes(key);
      const data = queryClient.getQueryData<InfiniteData<NotesPage, number>>(notesKey);
      if (!data || data.pages.length === 0) {
        void queryClient.invalidateQueries({ queryKey: notesKey });
        return;
      }
      queryClient.setQueryData<InfiniteData<NotesPage, number>>(notesKey, {
        ...data,
        pages: data.pages.map((page, index) => ({
          ...page,
          total: page.total + 1,
          results: index === 0 ? [...page.results, note] : page.results,
        })),
      });
    },
  });
}
