import { z } from 'zod';
import { pageOf, resultsOf } from '../common/lists.schemas.ts';
import { csvList, queryBool, queryId, searchText } from '../common/query.ts';
import { queryIsoDate, queryIsoDateEnd } from '../documents/documents.schemas.ts';

/**
 * Detection rules and their MITRE ATT&CK coverage (product §B2 Rules, §3 Rule, §7 Rules, §9).
 * Rules are provider-wide; a customer sees the rules available for the service levels of their
 * systems (product §A6), analysts and admins see every rule.
 */
export const RULE_LEVELS = ['Critical', 'High', 'Medium', 'Low'] as const;
export const RuleLevelSchema = z.enum(RULE_LEVELS);
export type RuleLevel = z.infer<typeof RuleLevelSchema>;

/** Service levels a rule can be available for (product §B3). */
export const RULE_SERVICE_LEVELS = ['Vision', 'Horizon', 'Focus', 'Panorama'] as const;
export const RuleServiceLevelSchema = z.enum(RULE_SERVICE_LEVELS);
export type RuleServiceLevel = z.infer<typeof RuleServiceLevelSchema>;

export const RULE_ACTIVATION_MODES = ['auto', 'manual'] as const;
export const RuleActivationModeSchema = z.enum(RULE_ACTIVATION_MODES);
export type RuleActivationMode = z.infer<typeof RuleActivationModeSchema>;

/** Rule list sort (product §B9: created), ASC or DESC. */
export const RULE_ORDERINGS = ['created', '-created'] as const;
export const RuleOrderingSchema = z.enum(RULE_ORDERINGS);
export type RuleOrdering = z.infer<typeof RuleOrderingSchema>;
export const DEFAULT_RULE_ORDERING: RuleOrdering = '-created';

export const RULES_PAGE_SIZE = 20;
/** `?page_size=2000&search=` serves the rule suggestions (product §B7, product §A9). */
export const RULES_SUGGESTION_PAGE_SIZE = 2000;
/** Filter suggestion lists (product §B9). */
export const RULE_SUGGEST_LIMIT = 7;
/** Related incidents of a rule: the first page, then 10 a page (product §B9, product §A9). */
export const RULE_INCIDENTS_FIRST_PAGE = 20;
export const RULE_INCIDENTS_PAGE = 10;

/** MITRE colour bands by rule count (product §B9). */
export const MITRE_BANDS = ['none', 'low', 'medium', 'high', 'highest'] as const;
export type MitreBand = (typeof MITRE_BANDS)[number];
export const mitreBand = (count: number): MitreBand =>
  count <= 0 ? 'none' : count <= 13 ? 'low' : count <= 15 ? 'medium' : count <= 17 ? 'high' : 'highest';

/** Rule card limits (product §B9). */
export const RULE_CARD_MAX_CATEGORIES = 3;
export const RULE_CARD_MAX_TECHNIQUES = 3;
export const RULE_CATEGORY_TRUNCATE = 19;
export const RULE_TECHNIQUE_TRUNCATE = 23;
export const RULE_CARD_BREAKPOINTS = [900, 1080] as const;
/** Rule page (product §B2): breadcrumb title and page title truncation. */
export const RULE_BREADCRUMB_TRUNCATE = 35;
export const RULE_PAGE_TITLE_TRUNCATE = 42;

export const TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/;
const techniqueId = z.string().regex(TECHNIQUE_ID, { error: 'Not a technique id.' });
const tacticName = z.string().regex(/^[a-z-]{1,64}$/, { error: 'Not a tactic short name.' });

/** One sensor group of a rule (product §B3 sensor_tuples). */
export const SensorTupleSchema = z.object({
  sensor: z.string(),
  sensor_module: z.string(),
  sensor_type: z.string(),
});
export type SensorTuple = z.infer<typeof SensorTupleSchema>;

export const RuleLinkSchema = z.object({ title: z.string(), url: z.string() });
/**
 * The URL of a rule's link: absolute http(s), at most 2,048 characters. Both the analyst API and
 * the Sigma import take only these (`javascript:`, `data:` and other schemes are refused), and the
 * catalogue serves no other.
 */
export const RuleLinkUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);
export const isRuleLinkUrl = (url: string): boolean => RuleLinkUrlSchema.safeParse(url).success;
export type RuleLink = z.infer<typeof RuleLinkSchema>;

export const RULE_SOURCES = ['sigma'] as const;
export const RuleSourceSchema = z.enum(RULE_SOURCES);
export type RuleSource = z.infer<typeof RuleSourceSchema>;
export const RuleLicenceSchema = z.object({ name: z.string(), url: z.string() });
export type RuleLicence = z.infer<typeof RuleLicenceSchema>;
/** The licence of the public Sigma rules (SigmaHQ): keep each rule's author, show the licence. */
export const SIGMA_LICENCE: RuleLicence = {
  name: 'Detection Rule License (DRL) 1.1',
  url: 'https://github.com/SigmaHQ/Detection-Rule-License',
};

/** A rule (list item and card share the shape). */
export const RuleSchema = z.object({
  id: z.number().int(),
  /** The provider's rule code, e.g. `SOC-R-0001`. */
  rule_id: z.string(),
  /** The detection name that incidents carry in `detection_rules`. */
  name: z.string(),
  rule_caption_rus: z.string(),
  rule_caption_eng: z.string(),
  /** Markdown-free plain text; '' when there is none. */
  description_rus: z.string(),
  description_eng: z.string(),
  /** ISO 8601. */
  created: z.string(),
  severity: RuleLevelSchema,
  confidence: RuleLevelSchema,
  category: z.array(z.string()),
  available_for_services: z.array(RuleServiceLevelSchema),
  activation_mode: RuleActivationModeSchema,
  /** A custom rule, developed on a customer's request. */
  is_requested: z.boolean(),
  /** Tactic short name → technique ids. */
  mitre_cov: z.record(z.string(), z.array(z.string())),
  mitre_tactic: z.array(z.string()),
  /** Technique ids of `mitre_cov`, with the parents of sub-techniques. */
  mitre_technique: z.array(z.string()),
  mitre_platform: z.array(z.string()),
  links: z.array(RuleLinkSchema),
  sensor_tuples: z.array(SensorTupleSchema),
  /** Where the rule came from: null for the provider's own, `sigma` for an imported Sigma rule. */
  source: RuleSourceSchema.nullable(),
  /** The rule's authors as written ('' when unknown). */
  author: z.string(),
  /** Sigma `status` of an imported rule (stable, test, experimental). */
  source_status: z.string().nullable(),
  /** Sigma `date` and `modified` (YYYY-MM-DD). */
  authored_on: z.string().nullable(),
  modified_on: z.string().nullable(),
  false_positives: z.array(z.string()),
  /** The licence to show with an imported rule (Sigma: Detection Rule License 1.1). */
  licence: RuleLicenceSchema.nullable(),
});
export type Rule = z.infer<typeof RuleSchema>;
/** A rule's page (GET /soc/rules/{id}/): the list item and, for an imported rule, its YAML. */
export const RuleDetailSchema = RuleSchema.extend({
  /** The imported rule's YAML as read (null for the provider's own rules). */
  source_yaml: z.string().nullable(),
});
export type RuleDetail = z.infer<typeof RuleDetailSchema>;
export const RuleListResponseSchema = pageOf(RuleSchema);
export type RuleListResponse = z.infer<typeof RuleListResponseSchema>;

/** Rule filters (product §B9). Empty values are not sent (product §B5). */
export const RuleFiltersShape = {
  search: searchText.optional(),
  severity__in: csvList(RuleLevelSchema).optional(),
  category__in: csvList(z.string().max(100)).optional(),
  confidence__in: csvList(RuleLevelSchema).optional(),
  created__gte: queryIsoDate.optional(),
  created__lte: queryIsoDateEnd.optional(),
  mitre_tactic__in: csvList(tacticName).optional(),
  /** A parent technique also matches the rules of its sub-techniques. */
  mitre_technique__in: csvList(techniqueId).optional(),
  mitre_platform__in: csvList(z.string().max(64)).optional(),
  /** The rules filter: rule ids. */
  id__in: csvList(queryId).optional(),
  /** Detection names, as incidents carry them. */
  name__in: csvList(z.string().max(300)).optional(),
  available_for_services__in: csvList(RuleServiceLevelSchema).optional(),
  is_requested: queryBool.optional(),
  activation_mode__in: csvList(RuleActivationModeSchema).optional(),
  sensor__in: csvList(z.string().max(100)).optional(),
  sensor_type__in: csvList(z.string().max(100)).optional(),
  sensor_module__in: csvList(z.string().max(100)).optional(),
};
export const RuleFiltersSchema = z.strictObject(RuleFiltersShape);
export type RuleFilters = z.infer<typeof RuleFiltersSchema>;
/** The filter keys the web app keeps in the URL. */
export const RULE_FILTER_KEYS = Object.keys(RuleFiltersShape).filter(
  (k) => k !== 'search',
) as (keyof RuleFilters)[];

/** GET /soc/rules/ (unknown parameters → 400). */
export const RuleListQuerySchema = z.strictObject({
  ...RuleFiltersShape,
  ordering: RuleOrderingSchema.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(RULES_SUGGESTION_PAGE_SIZE).default(RULES_PAGE_SIZE),
});
export type RuleListQuery = z.infer<typeof RuleListQuerySchema>;

/** GET /soc/rules/analytics_counters/ with the list's filters (product §B3 Rule counters). */
export const RuleCountersSchema = z.object({
  count: z.number().int().nonnegative(),
  /** Rules created in the last 30 days. */
  count_last_month: z.number().int().nonnegative(),
  /** Custom rules. */
  count_is_requested: z.number().int().nonnegative(),
  /**
   * Share (0–100, one decimal) of the active ATT&CK techniques and sub-techniques that the rules
   * cover; null without ATT&CK data.
   */
  mitre_coverage_percent: z.number().nullable(),
  /** Platform → share (0–100, one decimal) of that platform's techniques the rules cover. */
  mitre_coverage_by_platform: z.record(z.string(), z.number()),
  /** Platform → number of active techniques and sub-techniques of that platform. */
  mitre_total_techniques_by_platforms: z.record(z.string(), z.number().int()),
});
export type RuleCounters = z.infer<typeof RuleCountersSchema>;
export const RuleFiltersQuerySchema = RuleFiltersSchema;

/** A tactic of the matrix (product §B3), in matrix order. */
export const RuleMitreTacticSchema = z.object({
  name: z.string(),
  short_name: z.string(),
  is_hidden: z.boolean(),
});
export type RuleMitreTactic = z.infer<typeof RuleMitreTacticSchema>;

/** A technique or sub-technique of the matrix with the number of matching rules. */
export const RuleMitreTechniqueSchema = z.object({
  technique_id: z.string(),
  /** '' without ATT&CK data. */
  name: z.string(),
  /** `Parent: Sub-technique` for sub-techniques, else the name. */
  fullName: z.string(),
  url: z.string(),
  tactics: z.array(z.string()),
  /** Ids of the sub-techniques (parents only). */
  sub_techniques: z.array(z.string()),
  platforms: z.array(z.string()),
  /** Matching rules (a parent counts the rules of its sub-techniques too). */
  count: z.number().int().nonnegative(),
});
export type RuleMitreTechnique = z.infer<typeof RuleMitreTechniqueSchema>;

/** GET /soc/rules/coverage/: the matrix with rule counts per technique for the list's filters. */
export const RuleCoverageSchema = z.object({
  /** False when no ATT&CK bundle is available: techniques show ids only. */
  attack_loaded: z.boolean(),
  /** ATT&CK version of the loaded data (`18.1`), null when unknown or not loaded. */
  attack_version: z.string().nullable(),
  tactics: z.array(RuleMitreTacticSchema),
  techniques: z.array(RuleMitreTechniqueSchema),
});
export type RuleCoverage = z.infer<typeof RuleCoverageSchema>;

/** GET /soc/rules/techniques/{technique_id}/: a technique for the detail panel. */
export const RuleMitreTechniqueDetailSchema = RuleMitreTechniqueSchema.extend({
  /** MITRE's Markdown, without its `(Citation: …)` markers. */
  description: z.string(),
  /** `description` rendered to sanitised HTML (safe links, no scripts or remote images). */
  rendered_description: z.string(),
});
export type RuleMitreTechniqueDetail = z.infer<typeof RuleMitreTechniqueDetailSchema>;
export const TechniqueParamsSchema = z.object({ technique_id: techniqueId });

/** Filter suggestions: categories (`limit`, `search`). */
export const RuleCategorySuggestQuerySchema = z.strictObject({
  search: searchText.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(RULE_SUGGEST_LIMIT),
});
/** Filter suggestions: sensors, sensor types, sensor modules (`page_size`, `name__icontains`). */
export const RuleSensorSuggestQuerySchema = z.strictObject({
  name__icontains: searchText.optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(RULE_SUGGEST_LIMIT),
});
export const RuleSuggestionsResponseSchema = resultsOf(z.string());
export type RuleSuggestionsResponse = z.infer<typeof RuleSuggestionsResponseSchema>;

/** GET /soc/rules/services/: the service levels whose rules the caller sees (filter choices). */
export const RuleServicesResponseSchema = resultsOf(RuleServiceLevelSchema);
export type RuleServicesResponse = z.infer<typeof RuleServicesResponseSchema>;

/**
 * The bands' colours in exported Navigator layers (hexadecimal, as the layer format wants), from
 * none to highest: the gradient runs through them from 0 to 18 rules, and each technique carries
 * its band's colour so that Navigator shows the bands rather than a blend.
 */
export const MITRE_BAND_LAYER_COLORS: Readonly<Record<MitreBand, string>> = {
  none: '#ffffff',
  low: '#b7eb8f',
  medium: '#ffe58f',
  high: '#ffc069',
  highest: '#ff7875',
};
/** The first rule count of the highest band: the gradient's maximum. */
export const MITRE_BAND_HIGHEST_FROM = 18;

/**
 * Sigma import (issue 30): `POST /admin/rules/import/` (multipart: YAML files and/or zip archives
 * in the field `files`, options as text fields) and `npm run admin -- rules import-sigma`.
 */
export const SIGMA_IMPORT_LIMITS = {
  /** One rule file (the largest public rule is about 60 KB). */
  fileBytes: 1_000_000,
  /** One upload (a zip, or the files of one request together). */
  uploadBytes: 20_000_000,
  /** Entries of one zip and files of one request. */
  files: 5_000,
  /** Bytes inflated from one zip in all. */
  unzippedBytes: 100_000_000,
} as const;

export const SigmaImportOptionsSchema = z.strictObject({
  /** Service levels the imported rules are available for (CSV); all of them when absent. */
  services: csvList(RuleServiceLevelSchema).optional(),
  activation: RuleActivationModeSchema.default('manual'),
  /** Check and count without writing. */
  dry_run: queryBool.default(false),
});
export type SigmaImportOptions = z.infer<typeof SigmaImportOptionsSchema>;

/** Why a rule was not imported though its file is fine. */
export const SIGMA_SKIP_REASONS = ['deprecated', 'unsupported', 'informational', 'not_a_rule'] as const;
export const SigmaSkipReasonSchema = z.enum(SIGMA_SKIP_REASONS);
export type SigmaSkipReason = z.infer<typeof SigmaSkipReasonSchema>;

export const SigmaImportResultSchema = z.object({
  dry_run: z.boolean(),
  /** Files read (an archive's entries count one by one). */
  files: z.number().int().nonnegative(),
  created: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  skipped: z.array(
    z.object({
      file: z.string(),
      rule_id: z.string().nullable(),
      reason: SigmaSkipReasonSchema,
      message: z.string(),
    }),
  ),
  /** Files refused: nothing of them was imported. */
  errors: z.array(z.object({ file: z.string(), message: z.string() })),
  by_level: z.record(z.string(), z.number().int()),
  by_tactic: z.record(z.string(), z.number().int()),
  seconds: z.number(),
});
export type SigmaImportResult = z.infer<typeof SigmaImportResultSchema>;
