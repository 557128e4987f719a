import { DocumentChoicesResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/**
 * Choices of a filter (GET /soc/{kind}/tags/, /soc/instructions/sensors/). A failure yields an
 * empty list (product §B8): the multiselect then shows its not-found text.
 */
export function useDocumentChoicesQuery(view: DocumentKindView, field: 'tags' | 'sensors', enabled = true) {
  return useQuery({
    queryKey: documentKeys.choices(view.kind, field),
    queryFn: async ({ signal }) => {
      try {
        const answer = await apiRequest(`${view.apiPath}${field}/`, {
          schema: DocumentChoicesResponseSchema,
          signal,
          notify: false,
        });
        return answer.results;
      } catch {
        return [];
      }
    },
    enabled,
    staleTime: 5 * 60_000,
  });
}
