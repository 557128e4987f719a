import { FilterChoicesSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentKeys } from './incidentKeys.ts';

/** Choices of the incident filter row (GET /soc/filters/), with titles in the interface language. */
export function useFilterChoicesQuery(enabled = true) {
  const { t } = useTranslation();
  const language = useLanguage();
  return useQuery({
    queryKey: incidentKeys.filterChoices(language),
    queryFn: ({ signal }) =>
      apiRequest('/soc/filters/', {
        schema: FilterChoicesSchema,
        query: { language },
        signal,
        errorMessage: t('incidents.filters.choicesFailed'),
      }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
