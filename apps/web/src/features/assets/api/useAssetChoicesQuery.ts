import { AssetChoicesSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { assetKeys } from './assetKeys.ts';

/** Values of the asset list filters; a failure leaves them empty (product §B8). */
export function useAssetChoicesQuery() {
  return useQuery({
    queryKey: assetKeys.choices(),
    queryFn: ({ signal }) =>
      apiRequest('/cmdb/assets/choices/', { schema: AssetChoicesSchema, signal, notify: false }),
    staleTime: 5 * 60_000,
  });
}
