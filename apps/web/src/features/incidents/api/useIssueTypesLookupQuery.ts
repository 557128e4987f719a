import { IssueTypeOptionSchema, LOOKUP_LIMIT, pageOf } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentKeys } from './incidentKeys.ts';

const IssueTypesPageSchema = pageOf(IssueTypeOptionSchema);

/** Issue types for a picker (GET /soc/issue_types/?limit=30&search=); `search` is already debounced. */
export function useIssueTypesLookupQuery(search: string, enabled = true) {
  const language = useLanguage();
  const text = search.trim();
  return useQuery({
    queryKey: incidentKeys.issueTypes(text, language),
    queryFn: ({ signal }) =>
      apiRequest('/soc/issue_types/', {
        schema: IssueTypesPageSchema,
        query: { limit: LOOKUP_LIMIT, search: text, language },
        signal,
      }),
    select: (page) => page.results,
    placeholderData: keepPreviousData,
    enabled,
  });
}
