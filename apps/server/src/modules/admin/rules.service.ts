import type { SigmaImportOptions } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { RuleFiles, SigmaImportReport } from '../rules/index.ts';
import { importSigmaRules, techniqueTacticsOf } from '../rules/index.ts';
import type { AdminCaller } from './admin-caller.ts';
import { adminRecorder } from './admin-caller.ts';

/** Rule catalogue administration (issue 30): the Sigma import of the admin API and `npm run admin`. */
export function createAdminRulesService({ db, config }: { db: Db; config: Config }) {
  const record = adminRecorder(db);
  return {
    /** Imports the files (see rules.import.ts); a run that writes is audited with its figures. */
    async importSigma(
      files: RuleFiles,
      options: SigmaImportOptions,
      caller: AdminCaller,
    ): Promise<SigmaImportReport> {
      const report = await importSigmaRules(
        { db, tacticsOf: await techniqueTacticsOf(config, db) },
        files,
        options,
      );
      if (!options.dry_run)
        await record(caller, 'rules.import_sigma', 'rule', '', {
          files: report.files,
          created: report.created,
          updated: report.updated,
          unchanged: report.unchanged,
          skipped: report.skipped.length,
          refused: report.errors.length,
          services: options.services ?? null,
          activation: options.activation,
        });
      return report;
    },
  };
}
export type AdminRulesService = ReturnType<typeof createAdminRulesService>;
