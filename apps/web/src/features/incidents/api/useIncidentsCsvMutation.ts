import { AsyncCsvResponseSchema, CsvMaxExceededSchema } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload, apiRequest, ApiError } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { saveFile } from '@/shared/lib/saveFile.ts';
import { incidentApiQuery } from '../lib/incidentQuery.ts';

/** How a CSV export ended: saved in the browser, or to arrive by e-mail. */
export type IncidentsCsvResult =
  { kind: 'downloaded'; filename: string } | { kind: 'emailed'; email: string };

/** Name used when the server does not suggest one. */
const FALLBACK_FILENAME = 'incidents.csv';

/**
 * Exports the incident list with the given filters, sort and search (product §A4): the file
 * is downloaded directly (GET /soc/incs/get_csv/); when the server answers that it holds too
 * many rows for that, the asynchronous variant (GET /soc/incs/get_async_csv/) mails it instead.
 * Errors are reported by the caller.
 */
export function useIncidentsCsvMutation() {
  const language = useLanguage();
  return useMutation({
    mutationFn: async (filters: URLSearchParams): Promise<IncidentsCsvResult> => {
      const query = incidentApiQuery(filters, language);
      try {
        const file = await apiDownload('/soc/incs/get_csv/', { query, accept: 'text/csv', notify: false });
        const filename = file.filename ?? FALLBACK_FILENAME;
        saveFile(file.blob, filename);
        return { kind: 'downloaded', filename };
      } catch (error) {
        if (!(
          error instanceof ApiError &&
          error.status === 400 &&
          CsvMaxExceededSchema.safeParse(error.data).success
        )) {
          throw error;
        }
      }
      const answer = await apiRequest('/soc/incs/get_async_csv/', {
        query,
        schema: AsyncCsvResponseSchema,
        notify: false,
      });
      return { kind: 'emailed', email: answer.email };
    },
  });
}
