import type { Rule, RuleCoverage } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CachedAnswer, VersionSources } from '../../lib/cache/cached-answer.ts';
import type { VersionedCache } from '../../lib/cache/versioned-cache.ts';
import { createVersionedCache, keepVersioned } from '../../lib/cache/versioned-cache.ts';
import { readRulesVersion } from './rules-cache.repository.ts';

export const RULE_PAGES_CACHE_MAX_ENTRIES = 300;
export const RULE_COVERAGE_CACHE_MAX_ENTRIES = 100;
/** Larger pages (page_size goes up to 2,000) are answered but not kept: the memory stays bounded. */
export const KEPT_RULE_PAGE_MAX_ROWS = 100;

export interface RulePage {
  total: number;
  results: Rule[];
}

/**
 * Rule pages and MITRE coverage kept until `cache_epoch` moves: triggers raise it in the writer's
 * transaction for every change of the rules and of the services that make a customer's scope
 * (migrations 0022, 0023), one row under its lock, so a later read never sees an earlier value
 * and no event channel is needed. A hit costs one small named statement instead of the scope,
 * the page and its total. `key` names the caller's scope and query.
 */
export interface RulesResponseCache {
  page(key: string, build: () => Promise<RulePage>): Promise<RulePage>;
  coverage(key: string, build: () => Promise<RuleCoverage>): Promise<RuleCoverage>;
}

const RULES_VERSION_SOURCES: VersionSources = { epoch: true, events: [], counters: [], rows: [] };

/** Rules, and the services whose service levels make a customer's scope. */
export const RULE_PAGE_ANSWER: CachedAnswer = {
  name: 'rule page',
  reads: ['rules', 'services'],
  version: RULES_VERSION_SOURCES,
};

export const RULE_COVERAGE_ANSWER: CachedAnswer = {
  name: 'rule coverage',
  reads: ['rules', 'services'],
  version: RULES_VERSION_SOURCES,
};

export function createRulesResponseCache(
  db: Db,
  { pages = RULE_PAGES_CACHE_MAX_ENTRIES, coverage = RULE_COVERAGE_CACHE_MAX_ENTRIES } = {},
): RulesResponseCache {
  const pageCache: VersionedCache<RulePage> = createVersionedCache(pages, { live: true, name: 'rule_pages' });
  const coverageCache: VersionedCache<RuleCoverage> = createVersionedCache(coverage, {
    live: true,
    name: 'rule_coverage',
  });
  const version = () => readRulesVersion(db);
  return {
    page: (key, build) =>
      keepVersioned(pageCache, key, version, build, (page) => page.results.length <= KEPT_RULE_PAGE_MAX_ROWS),
    coverage: (key, build) => keepVersioned(coverageCache, key, version, build),
  };
}
