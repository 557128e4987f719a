import { SigmaImportOptionsSchema } from '@soc/contracts';
import { SigmaImportRefused, describeImport, readRuleFiles } from '../rules/index.ts';
import type { CommandGroup } from './command-context.ts';
import { CommandError, CommandFailed, arg } from './command-context.ts';
import { createAdminRulesService } from './rules.service.ts';

/**
 * `rules import-sigma PATH`: Sigma rules into the catalogue (issue 30). Exits with 1 when a file
 * was refused (the others are imported all the same).
 */
export const ruleCommands: CommandGroup = async (ctx) => {
  const { action, o, db, config, caller } = ctx;
  if (action !== 'import-sigma') return undefined;
  const path = arg(ctx, 0, 'the file or folder of Sigma rules');
  const options = SigmaImportOptionsSchema.parse({
    ...(o.services !== undefined ? { services: o.services } : {}),
    ...(o.activation !== undefined ? { activation: o.activation } : {}),
    dry_run: o['dry-run'] ? 'true' : 'false',
  });
  const files = await readRuleFiles(path).catch((err: unknown) => {
    throw new CommandError(`Cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  });
  const report = await createAdminRulesService({ db, config })
    .importSigma(files, options, caller)
    .catch((err: unknown) => {
      throw err instanceof SigmaImportRefused ? new CommandError(err.detail.en) : err;
    });
  const text = describeImport(report);
  if (report.errors.length) throw new CommandFailed(text);
  return text;
};
