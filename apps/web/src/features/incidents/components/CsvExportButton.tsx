import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyApiError } from '@/shared/api/index.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useIncidentsCsvMutation } from '../api/useIncidentsCsvMutation.ts';

export type CsvExportButtonProps = {
  /** The list's current filters, sort and search. */
  params: URLSearchParams;
};

/**
 * Downloads the incident list as CSV with the current filters; when it is too large for a
 * direct download the server mails it and a notification says where to (product §A4).
 */
export function CsvExportButton({ params }: CsvExportButtonProps) {
  const { t } = useTranslation();
  const mutation = useIncidentsCsvMutation();

  const exportCsv = () =>
    mutation.mutate(params, {
      onSuccess: (result) => {
        if (result.kind === 'emailed') {
          notifySuccess({
            title: t('incidents.csv.emailed'),
            description: t('incidents.csv.emailedDescription', { email: result.email }),
          });
        }
      },
      onError: (error) => notifyApiError(error, t('incidents.csv.failed')),
    });

  return (
    <Button
      icon={<DownloadOutlined aria-hidden />}
      loading={mutation.isPending}
      onClick={exportCsv}
      aria-label={t('incidents.toolbar.csvLabel')}
      title={t('incidents.toolbar.csvLabel')}
      data-testid="incidents-csv-button"
    >
      {t('incidents.toolbar.csv')}
    </Button>
  );
}
