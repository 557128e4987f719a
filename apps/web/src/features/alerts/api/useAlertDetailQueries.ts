import {
  AlertDetailSchema,
  AlertPageSchema,
  AlertTreeSchema,
  GroupedAlertDataSchema,
  LinkTemplateListSchema,
} from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { alertKeys } from './alertKeys.ts';
import '../i18n/texts.ts';

/** GET {incident}/alerts/{uuid}/ */
export function useAlertQuery(key: number, uuid: string) {
  const { t } = useTranslation();
  return useQuery({
    queryKey: alertKeys.alert(key, uuid),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/alerts/${uuid}/`, {
        schema: AlertDetailSchema,
        signal,
        errorMessage: t('alerts.loadFailed'),
      }),
  });
}

/** GET …/grouped_alert_data/ */
export function useGroupedAlertDataQuery(key: number, uuid: string) {
  return useQuery({
    queryKey: alertKeys.grouped(key, uuid),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/alerts/${uuid}/grouped_alert_data/`, {
        schema: GroupedAlertDataSchema,
        signal,
      }),
  });
}

/** GET …/tree/: a failure is shown in the panel (the first of non_field_errors, product §A8), not toasted. */
export function useAlertTreeQuery(key: number, uuid: string) {
  return useQuery({
    queryKey: alertKeys.tree(key, uuid),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/alerts/${uuid}/tree/`, { schema: AlertTreeSchema, signal, notify: false }),
    retry: false,
  });
}

/** GET …/symptomatic/ (first page). */
export function useSymptomaticQuery(key: number, uuid: string) {
  return useQuery({
    queryKey: alertKeys.symptomatic(key, uuid),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/incs/${key}/alerts/${uuid}/symptomatic/`, {
        schema: AlertPageSchema,
        query: { page: 1, page_size: 20 },
        signal,
      }),
  });
}

/** GET /alerts/{uuid}/available_links_templates/ */
export function useLinkTemplatesQuery(uuid: string) {
  return useQuery({
    queryKey: alertKeys.links(uuid),
    queryFn: ({ signal }) =>
      apiRequest(`/alerts/${uuid}/available_links_templates/`, { schema: LinkTemplateListSchema, signal }),
    select: (answer) => answer.results,
  });
}
