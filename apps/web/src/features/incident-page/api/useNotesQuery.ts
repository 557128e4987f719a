import { AnalystNoteListResponseSchema, type AnalystNoteListResponse } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import '../i18n/texts.ts';

/** Notes per page of the internal notes panel. */
export const NOTES_PAGE_SIZE = 50;

/** A page of notes with its number (the server pages oldest first). */
export type NotesPage = AnalystNoteListResponse & { page: number };

/** The first page's parameter: "the latest notes", whatever page number they are on. */
const LATEST = 0;

/**
 * The SOC's internal notes on an incident (GET /analyst/incidents/{key}/notes/), staff only. The
 * server pages oldest first, so earlier pages never shift; the panel opens on the latest page
 * (one more request when there are more than NOTES_PAGE_SIZE notes) and "Show earlier" loads
 * the page before. `pages[0]` is the latest, each page's notes oldest first.
 */
export function useNotesQuery(key: number, enabled: boolean) {
  const { t } = useTranslation();
  const fetchPage = (page: number, signal: AbortSignal) =>
    apiRequest(`/analyst/incidents/${key}/notes/`, {
      schema: AnalystNoteListResponseSchema,
      query: { page, page_size: NOTES_PAGE_SIZE },
      signal,
      errorMessage: t('incidentPage.notes.loadFailed'),
    });
  return useInfiniteQuery({
    queryKey: incidentPageKeys.notes(key),
    initialPageParam: LATEST,
    queryFn: async ({ pageParam, signal }): Promise<NotesPage> => {
      if (pageParam !== LATEST) return { ...(await fetchPage(pageParam, signal)), page: pageParam };
      const first = await fetchPage(1, signal);
      const last = Math.max(1, Math.ceil(first.total / NOTES_PAGE_SIZE));
      if (last === 1) return { ...first, page: 1 };
      return { ...(await fetchPage(last, signal)), page: last };
    },
    getNextPageParam: (page) => (page.page > 1 ? page.page - 1 : undefined),
    enabled,
  });
}
