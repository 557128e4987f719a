import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiDownload } from '@/shared/api/index.ts';
import { saveFile } from '@/shared/lib/saveFile.ts';
import { ruleFilterQuery } from '../lib/ruleQuery.ts';
import '../i18n/texts.ts';

/** Name used when the server does not suggest one. */
const FALLBACK_FILENAME = 'rules-attack-coverage-layer.json';

/**
 * Downloads the coverage of the filtered rules as an ATT&CK Navigator layer
 * (GET /soc/rules/coverage/layer/) and saves it; a failure shows the API's error toast.
 */
export function useCoverageLayerDownload() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async (filters: URLSearchParams): Promise<string> => {
      const file = await apiDownload('/soc/rules/coverage/layer/', {
        query: ruleFilterQuery(filters),
        accept: 'application/json',
        errorMessage: t('rules.layer.downloadFailed'),
      });
      const filename = file.filename ?? FALLBACK_FILENAME;
      saveFile(file.blob, filename);
      return filename;
    },
  });
}
