import { SystemPeopleResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { tenantKeys } from './tenantKeys.ts';

/** Choices of a people filter; a failure leaves the list empty (product §B8). */
export function useSystemPeopleQuery(role: 'service_manager' | 'dedicated_analyst') {
  return useQuery({
    queryKey: tenantKeys.people(role),
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/people/', {
        schema: SystemPeopleResponseSchema,
        query: { role },
        signal,
        notify: false,
      }),
    staleTime: 5 * 60_000,
  });
}
