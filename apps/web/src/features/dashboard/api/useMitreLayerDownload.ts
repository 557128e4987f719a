import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiDownload } from '@/shared/api/index.ts';
import { saveFile } from '@/shared/lib/saveFile.ts';

/** Name used when the server does not suggest one. */
const FALLBACK_FILENAME = 'incidents-attack-layer.json';

/**
 * Downloads the MITRE widget's incident counts for the dashboard's period and systems as an
 * ATT&CK Navigator layer (GET /soc/incs/analytics/mitre_layer/); a failure shows the API's toast.
 */
export function useMitreLayerDownload() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async (query: Record<string, string>): Promise<string> => {
      const file = await apiDownload('/soc/incs/analytics/mitre_layer/', {
        query,
        accept: 'application/json',
        errorMessage: t('dashboard.mitre.layerFailed'),
      });
      const filename = file.filename ?? FALLBACK_FILENAME;
      saveFile(file.blob, filename);
      return filename;
    },
  });
}
