import { ASSET_INCIDENTS_PAGE_SIZE, AssetIncidentListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { assetKeys } from './assetKeys.ts';

/** Incidents of an asset, 15 at a time by offset (product §B7, §B9). */
export function useAssetIncidentsQuery(cmdbId: string) {
  return useInfiniteQuery({
    queryKey: assetKeys.incidents(cmdbId),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/cmdb/assets/${encodeURIComponent(cmdbId)}/incidents/`, {
        schema: AssetIncidentListResponseSchema,
        query: { limit: ASSET_INCIDENTS_PAGE_SIZE, offset: pageParam },
        signal,
        notify: false,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, _all, offset) =>
      last.results.length === ASSET_INCIDENTS_PAGE_SIZE && last.next
        ? offset + ASSET_INCIDENTS_PAGE_SIZE
        : undefined,
  });
}
