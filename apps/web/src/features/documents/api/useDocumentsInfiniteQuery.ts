import { DOCUMENTS_PAGE_SIZE, DocumentListResponseSchema, type Language } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentApiQuery } from '../lib/documentQuery.ts';
import { documentKeys } from './documentKeys.ts';

/**
 * A document list (GET /soc/{kind}/) in the selected document language, paged by `page`;
 * another page exists while the last one has a `next` link. Keyed by the (sanitised)
 * filters: a change of filters drops the old query's observer and TanStack Query aborts it,
 * so a late answer never replaces a newer list. Errors are shown by the list itself.
 */
export function useDocumentsInfiniteQuery(
  view: DocumentKindView,
  filters: URLSearchParams,
  language: Language,
) {
  const filtersKey = filters.toString();
  return useInfiniteQuery({
    queryKey: documentKeys.list(view.kind, filtersKey, language),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(view.apiPath, {
        schema: DocumentListResponseSchema,
        query: {
          ...documentApiQuery(new URLSearchParams(filtersKey), language),
          page: pageParam,
          page_size: DOCUMENTS_PAGE_SIZE,
        },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _allPages, lastPageParam) =>
      lastPage.next === null ? undefined : lastPageParam + 1,
  });
}
