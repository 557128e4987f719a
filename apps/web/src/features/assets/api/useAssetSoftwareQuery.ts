import { SOFTWARE_PAGE_SIZE, SoftwareListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { assetKeys } from './assetKeys.ts';

/** Installed software, 40 at a time; more exist while a page holds exactly 40 (product §B9). */
export function useAssetSoftwareQuery(cmdbId: string, search: string) {
  return useInfiniteQuery({
    queryKey: assetKeys.software(cmdbId, search),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/cmdb/assets/${encodeURIComponent(cmdbId)}/software/`, {
        schema: SoftwareListResponseSchema,
        query: { limit: SOFTWARE_PAGE_SIZE, offset: pageParam, search },
        signal,
        notify: false,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, _all, offset) =>
      last.results.length === SOFTWARE_PAGE_SIZE ? offset + SOFTWARE_PAGE_SIZE : undefined,
  });
}
