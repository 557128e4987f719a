import { INCIDENTS_PAGE_SIZE, IncidentListResponseSchema } from '@soc/contracts';
import type { Language } from '@soc/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentApiQuery } from '../lib/incidentQuery.ts';
import { incidentKeys } from './incidentKeys.ts';

/**
 * The incident list (GET /soc/incs/), 40 per page by limit/offset; another page exists while
 * the last one has a `next` link. Keyed by the (sanitised) filters: when they change, the
 * query of the old filters loses its observer and TanStack Query aborts its request, so a late
 * answer can never replace the list of the newer filters. Errors are shown by the list itself.
 */
export const incidentsListQuery = (filters: URLSearchParams, language: Language) => {
  const filtersKey = filters.toString();
  return infiniteQueryOptions({
    queryKey: incidentKeys.list(filtersKey, language),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/soc/incs/', {
        schema: IncidentListResponseSchema,
        query: {
          ...incidentApiQuery(new URLSearchParams(filtersKey), language),
          limit: INCIDENTS_PAGE_SIZE,
          offset: pageParam,
        },
        signal,
        notify: false,
      }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _allPages, lastPageParam) =>
      lastPage.next === null ? undefined : lastPageParam + INCIDENTS_PAGE_SIZE,
  });
};

export function useIncidentsInfiniteQuery(filters: URLSearchParams) {
  return useInfiniteQuery(incidentsListQuery(filters, useLanguage()));
}
