import { AddFilesResponseSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, type UploadProgress } from '@/shared/api/index.ts';
import { incidentKeys } from './incidentKeys.ts';

/** What useAddIncidentFilesMutation uploads. */
export interface AddIncidentFilesVariables {
  /** The incident number. */
  incidentKey: number;
  files: readonly File[];
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * Attaches files to an incident (POST /soc/incs/{key}/add_file/, multipart, one `attachments`
 * part per file) with upload progress. Errors are reported by the caller.
 */
export function useAddIncidentFilesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ incidentKey, files, onProgress }: AddIncidentFilesVariables) => {
      const body = new FormData();
      for (const file of files) body.append('attachments', file, file.name);
      return apiUpload(`/soc/incs/${incidentKey}/add_file/`, {
        body,
        schema: AddFilesResponseSchema,
        notify: false,
        onProgress,
      });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() }),
  });
}
