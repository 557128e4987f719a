import { AvailableActionsSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/** The workflow actions the caller may take now (GET /soc/incs/{key}/available_actions/). */
export function useAvailableActionsQuery(key: number, enabled = true) {
  return useQuery({
    queryKey: incidentPageKeys.actions(key),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/available_actions/`, { schema: AvailableActionsSchema, signal }),
    select: (answer) => answer.results,
    enabled,
  });
}
