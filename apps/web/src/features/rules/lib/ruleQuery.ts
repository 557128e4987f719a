import {
  DEFAULT_RULE_ORDERING,
  RuleFiltersShape,
  RuleOrderingSchema,
  type Language,
  type Rule,
  type RuleOrdering,
} from '@soc/contracts';
import type { Dayjs } from 'dayjs';
import type { QueryParams } from '@/shared/api/index.ts';
import { listQueryParams } from '@/shared/lib/filters.ts';

/** The entity under which the rule list's filters are stored (design §7). */
export const RULES_FILTER_ENTITY = 'rules';

/** A parameter of the rule list's query string: a filter, `search` or `ordering`. */
export type RuleParam = keyof typeof RuleFiltersShape | 'ordering';

const ruleParams = listQueryParams<RuleParam, RuleOrdering>(
  RuleFiltersShape,
  RuleOrderingSchema,
  DEFAULT_RULE_ORDERING,
);

export const sanitizeRuleParams = ruleParams.sanitize;
export const readList = ruleParams.readList;
export const readOrdering = ruleParams.readOrdering;
export const withParams = ruleParams.withParams;
/** GET /soc/rules/ query: the filters with the ordering in effect. */
export const ruleApiQuery = ruleParams.apiQuery;

/** Counters, coverage and technique calls take the filters without ordering. */
export function ruleFilterQuery(params: URLSearchParams): QueryParams {
  const query: QueryParams = Object.fromEntries(params);
  delete query.ordering;
  return query;
}

/** Filters other than search and sort: they decide whether the filter bar shows. */
export function countActiveFilters(params: URLSearchParams): number {
  const keys = new Set<string>();
  for (const key of params.keys()) {
    if (key === 'search' || key === 'ordering') continue;
    keys.add(key.replace(/__(gte|lte)$/, ''));
  }
  return keys.size;
}

/** Parameters with every filter removed (search and sort stay). */
export function withoutFilters(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams();
  for (const key of ['search', 'ordering']) {
    const value = params.get(key);
    if (value) next.set(key, value);
  }
  return next;
}

export function readDate(params: URLSearchParams, key: RuleParam): number | null {
  const value = params.get(key);
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** A created range as ISO bounds from the start of its first day to the end of its last (product §B5). */
export function createdRangeChanges(
  range: readonly [Dayjs | null, Dayjs | null] | null,
): Partial<Record<RuleParam, string | null>> {
  const [start, end] = range ?? [null, null];
  return {
    created__gte: start ? start.startOf('day').toISOString() : null,
    created__lte: end ? end.endOf('day').toISOString() : null,
  };
}

/** The caption and description in the interface language, falling back to the other one. */
export function ruleCaption(rule: Rule, language: Language): string {
  return (
    (language === 'ru' ? rule.rule_caption_rus : rule.rule_caption_eng) ||
    rule.rule_caption_eng ||
    rule.rule_caption_rus
  );
}
export function ruleDescription(rule: Rule, language: Language): string {
  return (
    (language === 'ru' ? rule.description_rus : rule.description_eng) ||
    rule.description_eng ||
    rule.description_rus
  );
}

/** Text cut to `max` characters with an ellipsis (tooltips show the whole). */
export const truncate = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;

/** The technique ids of a rule's mapping, as authored. */
export const ruleTechniques = (rule: Rule): string[] => [...new Set(Object.values(rule.mitre_cov).flat())];
