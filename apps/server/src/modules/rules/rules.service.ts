import type {
  AttackLayerExport,
  Language,
  RuleMitreTechnique,
  RuleMitreTechniqueDetail,
  RuleCounters,
  RuleCoverage,
  RuleFilters,
  RuleListQuery,
} from '@soc/contracts';
import {
  DEFAULT_RULE_ORDERING,
  MITRE_BAND_HIGHEST_FROM,
  MITRE_BAND_LAYER_COLORS,
  MITRE_BANDS,
  RULE_SERVICE_LEVELS,
  mitreBand,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { AttackData, AttackTechnique } from '../../integrations/attack/attack.ts';
import { withoutCitations } from '../../integrations/attack/attack.ts';
import { navigatorLayer } from '../../integrations/attack/navigator-layer.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import { msg } from '../../lib/messages.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { presentRule, presentRuleDetail } from './rules.presenter.ts';
import type { RuleScope, RuleSuggestField } from './rules.repository.ts';
import { createRulesRepository } from './rules.repository.ts';
import type { RulePage, RulesResponseCache } from './rules.cache.ts';
import { scopeKey } from '../../lib/cache/versioned-cache.ts';

const DAY = 86_400_000;
/** "Last month" of the counters. */
const LAST_MONTH_DAYS = 30;

type RulesAttackData = AttackData;
type RulesAttackTechnique = AttackTechnique;

export interface RulesDeps {
  db: Db;
  /** ATT&CK data (loaded once, kept in memory by the loader). */
  attack: () => Promise<RulesAttackData>;
  now?: () => Date;
  /** Pages and coverage answered through it when given. */
  cache?: RulesResponseCache;
}

const isActive = (t: RulesAttackTechnique) => !t.isRevoked && !t.isDeprecated;
/** Which ATT&CK data an answer was computed from (part of the coverage cache key). */
const dataKey = (data: RulesAttackData) => `${data.source ?? ''}|${data.version ?? ''}|`;
const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

export function createRulesService({ db, attack, now = () => new Date(), cache }: RulesDeps) {
  const repo = createRulesRepository(db);
  /** The cache key of a caller's scope (the customer's systems give its service levels) and query. */
  const cacheKey = (auth: AuthContext, query: object) =>
    JSON.stringify([scopeKey(auth.role === 'customer' ? auth.systemIds : null), query]);

  /** Customers see the rules of their systems' service levels; staff see all. */
  const scopeOf = async (auth: AuthContext): Promise<RuleScope> =>
    auth.role === 'customer' ? repo.serviceNames(auth.systemIds) : null;

  const techniqueOf = (
    data: RulesAttackData,
    t: RulesAttackTechnique,
    counts: Map<string, number>,
  ): RuleMitreTechnique => {
    const parent = t.parentId ? data.byId.get(t.parentId) : undefined;
    return {
      technique_id: t.id,
      name: t.name,
      fullName: parent ? `${parent.name}: ${t.name}` : t.name,
      url: t.url,
      tactics: t.tactics,
      sub_techniques: t.subTechniques.filter((id) => {
        const sub = data.byId.get(id);
        return sub ? isActive(sub) : false;
      }),
      platforms: t.platforms,
      count: counts.get(t.id) ?? 0,
    };
  };

  /** The matrix with rule counts; without ATT&CK data, the rules' own technique ids. */
  async function coverage(filters: RuleFilters, auth: AuthContext): Promise<RuleCoverage> {
    const [perTechnique, data] = await Promise.all([
      repo.techniqueCounts(filters, await scopeOf(auth)),
      attack(),
    ]);
    if (!data.available) {
      const ids = [...perTechnique.keys()].sort();
      return {
        attack_loaded: false,
        attack_version: null,
        tactics: [],
        techniques: ids.map((id) => ({
          technique_id: id,
          name: '',
          fullName: '',
          url: '',
          tactics: [],
          sub_techniques: ids.filter((s) => s.startsWith(`${id}.`)),
          platforms: [],
          count: perTechnique.get(id) ?? 0,
        })),
      };
    }
    return {
      attack_loaded: true,
      attack_version: data.version,
      tactics: data.tactics
        .filter((t) => !t.isDeprecated)
        .map((t) => ({ name: t.name, short_name: t.shortName, is_hidden: false })),
      techniques: data.techniques.filter(isActive).map((t) => techniqueOf(data, t, perTechnique)),
    };
  }

  return {
    async list(q: RuleListQuery, auth: AuthContext): Promise<RulePage> {
      const build = async () => {
        const { page, page_size, ordering, ...filters } = q;
        const { rows, total } = await repo.list(
          filters,
          await scopeOf(auth),
          ordering ?? DEFAULT_RULE_ORDERING,
          page_size,
          (page - 1) * page_size,
        );
        return { total, results: rows.map(presentRule) };
      };
      return cache ? cache.page(cacheKey(auth, q), build) : build();
    },

    async card(id: number, auth: AuthContext) {
      const row = await repo.byId(id, await scopeOf(auth));
      if (!row) throw notFound();
      return presentRuleDetail(row);
    },

    /** Rule ids → detection names, within the caller's scope (incidents of a rule). */
    async names(ids: number[], auth: AuthContext): Promise<string[]> {
      const { rows } = await repo.list({ id__in: ids }, await scopeOf(auth), '-created', ids.length, 0);
      return rows.map((r) => r.name);
    },

    async counters(filters: RuleFilters, auth: AuthContext): Promise<RuleCounters> {
      const scope = await scopeOf(auth);
      const since = new Date(now().getTime() - LAST_MONTH_DAYS * DAY);
      const [counts, perTechnique, data] = await Promise.all([
        repo.counts(filters, scope, since),
        repo.techniqueCounts(filters, scope),
        attack(),
      ]);
      const active = data.techniques.filter(isActive);
      const covered = active.filter((t) => (perTechnique.get(t.id) ?? 0) > 0);
      const totals: Record<string, number> = {};
      const coveredBy: Record<string, number> = {};
      for (const t of active) for (const p of t.platforms) totals[p] = (totals[p] ?? 0) + 1;
      for (const t of covered) for (const p of t.platforms) coveredBy[p] = (coveredBy[p] ?? 0) + 1;
      const byPlatform: Record<string, number> = {};
      for (const p of Object.keys(totals).sort()) byPlatform[p] = percent(coveredBy[p] ?? 0, totals[p]!);
      return {
        count: counts.count,
        count_last_month: counts.lastMonth,
        count_is_requested: counts.requested,
        mitre_coverage_percent: data.available ? percent(covered.length, active.length) : null,
        mitre_coverage_by_platform: byPlatform,
        mitre_total_techniques_by_platforms: Object.fromEntries(
          Object.keys(totals)
            .sort()
            .map((p) => [p, totals[p]!]),
        ),
      };
    },

    /** The matrix with rule counts; without ATT&CK data, the rules' own technique ids. */
    async coverage(filters: RuleFilters, auth: AuthContext): Promise<RuleCoverage> {
      if (!cache) return coverage(filters, auth);
      // the ATT&CK data in force is part of the key: an import changes the answer, not the epoch
      const data = await attack();
      return cache.coverage(`${dataKey(data)}${cacheKey(auth, filters)}`, () => coverage(filters, auth));
    },

    /**
     * The coverage as an ATT&CK Navigator layer (format 4.5): the score of a technique is its
     * number of matching rules, coloured by the spec's bands (gradient and legend), the comment
     * lists the rule codes, the layer's metadata the filters applied.
     */
    async coverageLayer(filters: RuleFilters, auth: AuthContext, lang: Language): Promise<AttackLayerExport> {
      const scope = await scopeOf(auth);
      const [ruleIds, data, chosen] = await Promise.all([
        repo.techniqueRuleIds(filters, scope),
        attack(),
        // the rules filter is named by the codes of the chosen rules the caller may see
        filters.id__in
          ? repo.list({ id__in: filters.id__in }, scope, '-created', filters.id__in.length, 0)
          : null,
      ]);
      // without ATT&CK data every technique id of the rules is kept; with it, only live techniques
      const listed = data.available
        ? data.techniques.filter(isActive).map((t) => t.id)
        : [...ruleIds.keys()].sort();
      const bandLabel = {
        none: msg('layerBandNone'),
        low: msg('layerBandLow'),
        medium: msg('layerBandMedium'),
        high: msg('layerBandHigh'),
        highest: msg('layerBandHighest'),
      };
      return navigatorLayer({
        name: msg('layerRulesName').in(lang),
        description: msg('layerRulesDescription').in(lang),
        attackVersion: data.version,
        techniques: listed.flatMap((id) => {
          const ids = ruleIds.get(id) ?? [];
          return ids.length
            ? [
                {
                  id,
                  score: ids.length,
                  color: MITRE_BAND_LAYER_COLORS[mitreBand(ids.length)],
                  comment: msg('layerRulesComment', ids.join(', ')).in(lang),
                },
              ]
            : [];
        }),
        gradient: {
          colors: MITRE_BANDS.map((b) => MITRE_BAND_LAYER_COLORS[b]),
          minValue: 0,
          maxValue: MITRE_BAND_HIGHEST_FROM,
        },
        legend: MITRE_BANDS.map((b) => ({ label: bandLabel[b].in(lang), color: MITRE_BAND_LAYER_COLORS[b] })),
        ...(filters.mitre_platform__in ? { platforms: filters.mitre_platform__in } : {}),
        metadata: [
          ...Object.entries({
            ...filters,
            ...(chosen ? { id__in: chosen.rows.map((r) => r.ruleId).sort() } : {}),
          })
            .filter(([, v]) => v !== undefined && v !== '')
            .map(([k, v]) => ({
              name: `${msg('layerFilter').in(lang)}: ${k}`,
              value: Array.isArray(v) ? v.join(', ') : String(v instanceof Date ? v.toISOString() : v),
            })),
        ],
      });
    },

    async technique(id: string, filters: RuleFilters, auth: AuthContext): Promise<RuleMitreTechniqueDetail> {
      const data = await attack();
      const t = data.byId.get(id);
      if (!t) throw notFound();
      const counts = await repo.techniqueCounts(
        { ...filters, mitre_technique__in: [id] },
        await scopeOf(auth),
      );
      const description = withoutCitations(t.description);
      return {
        ...techniqueOf(data, t, counts),
        description,
        rendered_description: renderMarkdown(description),
      };
    },

    async suggest(field: RuleSuggestField, text: string | undefined, limit: number, auth: AuthContext) {
      return repo.suggest(field, await scopeOf(auth), text, limit);
    },

    /** Service levels whose rules the caller sees (the available-for filter's choices). */
    async services(auth: AuthContext) {
      const scope = await scopeOf(auth);
      return RULE_SERVICE_LEVELS.filter((s) => !scope || scope.includes(s));
    },
  };
}
export type RulesService = ReturnType<typeof createRulesService>;
