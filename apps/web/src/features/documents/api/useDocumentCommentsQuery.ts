import { DocumentCommentListResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/** Comments shown on a card: the server's upper page size, oldest first. */
export const DOCUMENT_COMMENTS_PAGE_SIZE = 200;

/** The comments of a document (GET /soc/{kind}/{id}/comments/), oldest first; errors show in the block. */
export function useDocumentCommentsQuery(view: DocumentKindView, id: number) {
  return useQuery({
    queryKey: documentKeys.comments(view.kind, id),
    queryFn: ({ signal }) =>
      apiRequest(`${view.apiPath}${id}/comments/`, {
        schema: DocumentCommentListResponseSchema,
        query: { page_size: DOCUMENT_COMMENTS_PAGE_SIZE },
        signal,
        notify: false,
      }),
  });
}
