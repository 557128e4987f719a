/** Detection rules and their ATT&CK coverage, and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CacheRegistry } from '../../lib/cache/caches.ts';
import type { AppModule } from '../app-module.ts';
import { RULE_COVERAGE_ANSWER, RULE_PAGE_ANSWER, createRulesResponseCache } from './rules.cache.ts';
import { rulesAttack } from './rules.attack.ts';
import { rulesRoutes } from './rules.routes.ts';
import { createRulesService } from './rules.service.ts';

export { createRulesService };

export { presentRule } from './rules.presenter.ts';
// Sigma import (issue 30): the admin command and route run it, the demo builds its catalogue with it
export type { SigmaImportReport } from './rules.import.ts';
export {
  SIGMA_CATEGORY,
  describeImport,
  SigmaImportRefused,
  importSigmaRules,
  presentImport,
  techniqueTacticsOf,
} from './rules.import.ts';
export type { RuleFile, RuleFiles } from './rules.sigma-files.ts';
export { readRuleFiles, ruleFilesOf } from './rules.sigma-files.ts';
export type { TechniqueTactics } from './rules.sigma.ts';
export { formatBytes } from './rules.sigma.ts';
// the caches of rule answers, made once per app by rulesCache
export type { RulesResponseCache } from './rules.cache.ts';

/** The caches of rule answers (the list's pages, the ATT&CK coverage), made once per app. */
export function rulesCache(caches: CacheRegistry, db: Db) {
  return caches.shared('rules', () => {
    caches.declare(RULE_PAGE_ANSWER, RULE_COVERAGE_ANSWER);
    return createRulesResponseCache(db);
  });
}

export const rulesModule: AppModule = async (app, { ctx }) => {
  await app.register(rulesRoutes, {
    prefix: `${API_BASE}/soc`,
    rules: createRulesService({
      db: ctx.db,
      attack: rulesAttack(ctx.config, ctx.db),
      cache: rulesCache(ctx.caches, ctx.db),
      ...(ctx.now ? { now: ctx.now } : {}),
    }),
    config: ctx.config,
  });
};
