import { CategoryOptionSchema, LOOKUP_LIMIT, pageOf } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentKeys } from './incidentKeys.ts';

const CategoriesPageSchema = pageOf(CategoryOptionSchema);

/**
 * Categories of one issue type for a picker (GET /soc/issues/{type}/categories/?limit=30&search=);
 * idle until an issue type is chosen. `search` is already debounced.
 */
export function useCategoriesLookupQuery(issueTypeId: number | null, search: string, enabled = true) {
  const language = useLanguage();
  const text = search.trim();
  return useQuery({
    queryKey: incidentKeys.categories(issueTypeId ?? 0, text, language),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/issues/${issueTypeId ?? 0}/categories/`, {
        schema: CategoriesPageSchema,
        query: { limit: LOOKUP_LIMIT, search: text, language },
        signal,
      }),
    select: (page) => page.results,
    enabled: enabled && issueTypeId !== null,
  });
}
