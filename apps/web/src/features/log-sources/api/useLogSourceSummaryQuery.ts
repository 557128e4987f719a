import { LogSourceSummarySchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { logSourceKeys } from './logSourceKeys.ts';

/** Totals per status and per type for the filters (GET /soc/logsources/summary/). */
export function useLogSourceSummaryQuery(filters: URLSearchParams) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: logSourceKeys.summary(filtersKey),
    queryFn: ({ signal }) =>
      apiRequest('/soc/logsources/summary/', {
        schema: LogSourceSummarySchema,
        query: Object.fromEntries(new URLSearchParams(filtersKey)),
        signal,
        abortKey: 'logsources-summary',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
