import { DocumentLanguagesResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/**
 * The languages in which documents of a kind exist (GET /soc/{kind}/languages/). A failure is
 * shown next to the language filter with a retry link (product §B8), not as a toast.
 */
export function useDocumentLanguagesQuery(view: DocumentKindView) {
  return useQuery({
    queryKey: documentKeys.languages(view.kind),
    queryFn: ({ signal }) =>
      apiRequest(`${view.apiPath}languages/`, {
        schema: DocumentLanguagesResponseSchema,
        signal,
        notify: false,
      }),
    select: (answer) => answer.results.filter((entry) => entry.count > 0).map((entry) => entry.language),
    retry: false,
    staleTime: 60_000,
  });
}
