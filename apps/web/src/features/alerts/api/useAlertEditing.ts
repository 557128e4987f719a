import type { AlertPatch } from '@soc/contracts';
import { AlertDetailSchema, AlertLinkSchema, ResponseTeamListSchema, TagListSchema } from '@soc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { alertKeys } from './alertKeys.ts';
import '../i18n/texts.ts';

/** PATCH /soc/alerts/{uuid}/ (tags, response team); refreshes the alert and the table. */
export function useAlertPatchMutation(key: number, uuid: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: AlertPatch) =>
      apiRequest(`/soc/alerts/${uuid}/`, {
        method: 'PATCH',
        body: payload,
        schema: AlertDetailSchema,
        errorMessage: t('alerts.saveFailed'),
      }),
    onSuccess: async (alert) => {
      queryClient.setQueryData(alertKeys.alert(key, uuid), alert);
      await queryClient.invalidateQueries({ queryKey: alertKeys.alertsAll(key) });
    },
  });
}

/** Tag suggestions (GET /soc/tags/?limit=5&q=); a failure gives an empty list (product §A8). */
export function useTagSuggestionsQuery(q: string) {
  return useQuery({
    queryKey: alertKeys.tags(q),
    queryFn: ({ signal }) =>
      apiRequest('/soc/tags/', {
        schema: TagListSchema,
        query: { limit: 5, ...(q ? { q } : {}) },
        signal,
        notify: false,
      })
        .then((answer) => answer.results)
        .catch((error: unknown) => {
          if (signal.aborted) throw error;
          return [];
        }),
  });
}

/** Response teams of the alert's system (GET /soc/response_teams/?limit=5). */
export function useResponseTeamsQuery(system: number, search: string) {
  return useQuery({
    queryKey: alertKeys.teams(system, search),
    queryFn: ({ signal }) =>
      apiRequest('/soc/response_teams/', {
        schema: ResponseTeamListSchema,
        query: { limit: 5, system, ...(search ? { search } : {}) },
        signal,
      }),
    select: (answer) => answer.results,
  });
}

/** The rendered link of a template (GET /alerts/{uuid}/link/?template=&value=). */
export function useAlertLinkMutation(uuid: string) {
  return useMutation({
    mutationFn: ({ template, value }: { template: number; value: string }) =>
      apiRequest(`/alerts/${uuid}/link/`, { schema: AlertLinkSchema, query: { template, value } }),
  });
}
