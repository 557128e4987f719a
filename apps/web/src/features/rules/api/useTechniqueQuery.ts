import { RuleMitreTechniqueDetailSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { ruleFilterQuery } from '../lib/ruleQuery.ts';
import { ruleKeys } from './ruleKeys.ts';

/** A technique with its description for the MITRE detail panel. */
export function useTechniqueQuery(id: string | null, filters: URLSearchParams) {
  const key = filters.toString();
  return useQuery({
    queryKey: ruleKeys.technique(id ?? '', key),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/rules/techniques/${id}/`, {
        schema: RuleMitreTechniqueDetailSchema,
        query: ruleFilterQuery(new URLSearchParams(key)),
        signal,
        notify: false,
      }),
    enabled: id !== null,
  });
}
