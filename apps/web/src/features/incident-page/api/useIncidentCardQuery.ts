import { IncidentCardSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

/**
 * The incident card (GET /soc/incs/{key}/) in the interface language. Errors are not toasted
 * here: the page shows the load-failure toast of product §A8 and leaves for the list.
 */
export function useIncidentCardQuery(key: number) {
  const language = useLanguage();
  return useQuery({
    queryKey: incidentPageKeys.card(key, language),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/`, {
        schema: IncidentCardSchema,
        query: { language },
        signal,
        notify: false,
      }),
    enabled: Number.isInteger(key) && key > 0,
    // A missing incident stays missing: no retries before the redirect.
    retry: false,
    // A language switch refetches the card; keep showing the old one meanwhile.
    placeholderData: keepPreviousData,
  });
}
