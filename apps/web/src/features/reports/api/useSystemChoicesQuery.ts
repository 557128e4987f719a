import type { SystemChoice } from '@soc/contracts';
import { pageOf, SystemOptionSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { reportKeys } from './reportKeys.ts';

const SystemsPageSchema = pageOf(SystemOptionSchema);

/** System choices of the report forms (product §B3, §B7: GET systems fills them): key = code, text = name. */
export function useSystemChoicesQuery() {
  return useQuery({
    queryKey: reportKeys.systems(),
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/', {
        schema: SystemsPageSchema,
        query: { no_page: true },
        signal,
        notify: false,
      }),
    select: (page): SystemChoice[] => page.results.map((s) => ({ key: s.is_id, text: s.full_name })),
    staleTime: 5 * 60_000,
  });
}
