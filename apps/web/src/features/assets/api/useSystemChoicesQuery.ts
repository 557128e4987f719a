import { SystemOptionSchema, pageOf } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';

const SystemChoicesSchema = pageOf(SystemOptionSchema);

/** The caller's systems as filter choices (GET /soc/systems/?no_page=true&short=true). */
export function useSystemChoicesQuery() {
  return useQuery({
    queryKey: ['systems', 'choices'] as const,
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/', {
        schema: SystemChoicesSchema,
        query: { no_page: true, short: true },
        signal,
        notify: false,
      }),
    select: (page) => page.results,
    staleTime: 5 * 60_000,
  });
}
