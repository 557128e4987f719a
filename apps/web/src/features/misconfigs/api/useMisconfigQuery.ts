import { MisconfigDetailSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { misconfigKeys } from './misconfigKeys.ts';

/** One recommendation with its history (GET /soc/misconfigs/{id}/); the panel shows errors. */
export function useMisconfigQuery(id: number) {
  return useQuery({
    queryKey: misconfigKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/misconfigs/${id}/`, { schema: MisconfigDetailSchema, signal, notify: false }),
  });
}
