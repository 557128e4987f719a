import { AlertBulkResultSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { alertKeys } from './alertKeys.ts';

/**
 * Staff attach existing alerts to an incident (POST /soc/alerts/bulk/, action `attach`): all or
 * nothing; the server refuses alerts of another system than the incident's, with its message
 * shown as a toast. The list and the incident's alerts ask again either way.
 */
export function useAttachAlertsMutation() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ alerts, issue }: { alerts: string[]; issue: number }) =>
      apiRequest('/soc/alerts/bulk/', {
        method: 'POST',
        body: { alerts, action: 'attach', issue },
        schema: AlertBulkResultSchema,
        errorMessage: t('alerts.bulk.attachFailed'),
      }),
    onSettled: (_data, _error, { issue }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['alerts'] }),
        client.invalidateQueries({ queryKey: alertKeys.incident(issue) }),
      ]),
  });
}
