import { DocumentCardSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/**
 * A document card (GET /soc/{kind}/{id}/). Errors are not toasted here: the page shows the
 * load-failure toast and returns to its list (product §B8).
 */
export function useDocumentQuery(view: DocumentKindView, id: number) {
  return useQuery({
    queryKey: documentKeys.card(view.kind, id),
    queryFn: ({ signal }) =>
      apiRequest(`${view.apiPath}${id}/`, { schema: DocumentCardSchema, signal, notify: false }),
    // A missing document stays missing: no retries before the redirect.
    retry: false,
  });
}
