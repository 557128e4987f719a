import { DocumentHistoryResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/** Versions listed in the history modal (the server's upper page size), newest first. */
export const DOCUMENT_HISTORY_PAGE_SIZE = 200;

/** The version history of a document (GET /soc/{kind}/{id}/history/), fetched while the modal is open. */
export function useDocumentHistoryQuery(view: DocumentKindView, id: number, enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.history(view.kind, id),
    queryFn: ({ signal }) =>
      apiRequest(`${view.apiPath}${id}/history/`, {
        schema: DocumentHistoryResponseSchema,
        query: { page_size: DOCUMENT_HISTORY_PAGE_SIZE },
        signal,
        notify: false,
      }),
    enabled,
  });
}
