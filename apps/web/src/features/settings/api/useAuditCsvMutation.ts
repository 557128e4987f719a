import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { saveFile } from '@/shared/lib/saveFile.ts';

/** GET /audit/csv/ with the list's filters, saved as a file; errors are reported by the caller. */
export function useAuditCsvMutation() {
  const language = useLanguage();
  return useMutation({
    mutationFn: async (filters: URLSearchParams) => {
      const file = await apiDownload('/audit/csv/', {
        query: { ...Object.fromEntries(filters), language },
        accept: 'text/csv',
        notify: false,
      });
      const filename = file.filename ?? 'audit.csv';
      saveFile(file.blob, filename);
      return filename;
    },
  });
}
