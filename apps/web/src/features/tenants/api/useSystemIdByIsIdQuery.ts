import { SystemListResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { tenantKeys } from './tenantKeys.ts';

/**
 * The numeric id of the system whose customer-facing id (`is_id`, e.g. IS-0003) is `isId`, or
 * null when none has it. The server has no lookup by is_id; the list's id filter is a substring
 * match, so the exact id is picked from its answer.
 */
export function useSystemIdByIsIdQuery(isId: string) {
  return useQuery({
    queryKey: tenantKeys.byIsId(isId),
    queryFn: async ({ signal }) => {
      const page = await apiRequest('/soc/systems/', {
        schema: SystemListResponseSchema,
        query: { is_id__icontains: isId, no_page: true },
        signal,
        notify: false,
      });
      const wanted = isId.toUpperCase();
      return page.results.find((system) => system.is_id.toUpperCase() === wanted)?.id ?? null;
    },
    retry: false,
  });
}
