import { ALERTS_PAGE_SIZE, AlertPageSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { alertKeys } from './alertKeys.ts';
import '../i18n/texts.ts';

/** The incident's alerts page by page (GET {incident}/alerts/?page=n), newest first. */
export function useIncidentAlertsQuery(key: number, search: string) {
  const { t } = useTranslation();
  return useInfiniteQuery({
    queryKey: alertKeys.alerts(key, search),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/soc/incs/${key}/alerts/`, {
        schema: AlertPageSchema,
        query: { page: pageParam, page_size: ALERTS_PAGE_SIZE, ...(search ? { search } : {}) },
        signal,
        errorMessage: t('alerts.loadFailed'),
      }),
    getNextPageParam: (last, pages) => (last.next ? pages.length + 1 : undefined),
  });
}
