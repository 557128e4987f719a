import {
  COUNT_BADGE_LIMIT,
  SoftwareListResponseSchema,
  AssetIncidentListResponseSchema,
} from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { assetKeys } from './assetKeys.ts';

/** The tab badges: the same calls with limit=100 (product §B7), shown as 99+ above 99. */
export function useAssetIncidentsCountQuery(cmdbId: string) {
  return useQuery({
    queryKey: assetKeys.incidentsCount(cmdbId),
    queryFn: ({ signal }) =>
      apiRequest(`/cmdb/assets/${encodeURIComponent(cmdbId)}/incidents/`, {
        schema: AssetIncidentListResponseSchema,
        query: { limit: COUNT_BADGE_LIMIT, offset: 0 },
        signal,
        notify: false,
      }),
    select: (page) => page.total,
  });
}

export function useAssetSoftwareCountQuery(cmdbId: string) {
  return useQuery({
    queryKey: assetKeys.softwareCount(cmdbId),
    queryFn: ({ signal }) =>
      apiRequest(`/cmdb/assets/${encodeURIComponent(cmdbId)}/software/`, {
        schema: SoftwareListResponseSchema,
        query: { limit: COUNT_BADGE_LIMIT, offset: 0 },
        signal,
        notify: false,
      }),
    select: (page) => page.total,
  });
}
