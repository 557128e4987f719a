import { LOOKUP_LIMIT, pageOf, SystemOptionSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { useLanguage } from '../../../shared/hooks/useLanguage.ts';
import { incidentKeys } from './incidentKeys.ts';

const SystemsPageSchema = pageOf(SystemOptionSchema);

/**
 * The caller's systems (tenants) for a picker
 * (GET /soc/systems/?no_page=true&short=true&page_size=30&search=); `search` is already debounced.
 */
export function useSystemsLookupQuery(search: string, enabled = true) {
  const language = useLanguage();
  const text = search.trim();
  return useQuery({
    queryKey: incidentKeys.systems(text, language),
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/', {
        schema: SystemsPageSchema,
        query: { no_page: true, short: true, page_size: LOOKUP_LIMIT, search: text, language },
        signal,
      }),
    select: (page) => page.results,
    placeholderData: keepPreviousData,
    enabled,
  });
}
