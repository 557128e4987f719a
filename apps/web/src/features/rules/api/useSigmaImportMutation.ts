import { SigmaImportResultSchema, type RuleActivationMode, type RuleServiceLevel } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, type UploadProgress } from '@/shared/api/index.ts';
import { ruleKeys } from './ruleKeys.ts';

export interface SigmaImportVariables {
  files: readonly File[];
  /** None: every service level. */
  services: readonly RuleServiceLevel[];
  activation: RuleActivationMode;
  dryRun: boolean;
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * POST /admin/rules/import/ (administrators): the files with the options as text fields; a file
 * of a chosen folder goes under its path inside it, so that the answer names it so. Errors are
 * left to the dialog; an import that changed rules refreshes the rules screens.
 */
export function useSigmaImportMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ files, services, activation, dryRun, onProgress }: SigmaImportVariables) => {
      const form = new FormData();
      if (services.length > 0) form.append('services', services.join(','));
      form.append('activation', activation);
      form.append('dry_run', String(dryRun));
      for (const file of files) form.append('files', file, file.webkitRelativePath || file.name);
      return apiUpload('/admin/rules/import/', {
        body: form,
        schema: SigmaImportResultSchema,
        notify: false,
        onProgress,
      });
    },
    onSuccess: async (result) => {
      if (!result.dry_run) await client.invalidateQueries({ queryKey: ruleKeys.all });
    },
  });
}
