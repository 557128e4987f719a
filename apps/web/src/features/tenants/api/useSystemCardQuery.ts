import { SystemCardSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { tenantKeys } from './tenantKeys.ts';

/** The system card (GET /soc/systems/{id}/); the page shows errors itself. */
export function useSystemCardQuery(id: number) {
  return useQuery({
    queryKey: tenantKeys.card(id),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/systems/${id}/`, { schema: SystemCardSchema, signal, notify: false }),
    retry: false,
  });
}
