import { AssetSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { assetKeys } from './assetKeys.ts';

/** An asset by cmdb_id; the page shows errors itself. */
export function useAssetQuery(cmdbId: string) {
  return useQuery({
    queryKey: assetKeys.asset(cmdbId),
    queryFn: ({ signal }) =>
      apiRequest(`/cmdb/assets/${encodeURIComponent(cmdbId)}/`, {
        schema: AssetSchema,
        signal,
        notify: false,
      }),
    retry: false,
  });
}
