import { ASSETS_PAGE_SIZE, AssetListResponseSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { assetKeys } from './assetKeys.ts';

/** One page of GET /cmdb/assets/ for the URL's filters; a newer request aborts an older one. */
export function useAssetsQuery(filters: URLSearchParams, page: number) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: assetKeys.list(filtersKey, page),
    queryFn: ({ signal }) =>
      apiRequest('/cmdb/assets/', {
        schema: AssetListResponseSchema,
        query: { ...Object.fromEntries(new URLSearchParams(filtersKey)), page, page_size: ASSETS_PAGE_SIZE },
        signal,
        abortKey: 'assets-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
