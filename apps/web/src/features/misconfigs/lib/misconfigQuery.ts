import {
  DEFAULT_MISCONFIG_ORDERING,
  MisconfigFiltersShape,
  MisconfigOrderingSchema,
  type MisconfigOrdering,
} from '@soc/contracts';
import type { QueryParams } from '../../../shared/api/index.ts';
import {
  readListParam,
  sanitizeFilterParams,
  withFilterParams,
  type FilterParamValue,
} from '../../../shared/lib/filters.ts';

/** The entity under which the list's filters are stored (DESIGN §7). */
export const MISCONFIGS_FILTER_ENTITY = 'misconfigs';

export type MisconfigParam = keyof typeof MisconfigFiltersShape | 'ordering';

const PARAM_SCHEMAS = new Map<string, { safeParse(value: unknown): { success: boolean } }>([
  ...Object.entries(MisconfigFiltersShape),
  ['ordering', MisconfigOrderingSchema],
]);

/** Keeps the known parameters with values the contract accepts (a stale URL must not give a 400). */
export const sanitizeMisconfigParams = (params: URLSearchParams): URLSearchParams =>
  sanitizeFilterParams(params, (key) => PARAM_SCHEMAS.get(key));

export const readMisconfigList = (params: URLSearchParams, key: MisconfigParam): string[] =>
  readListParam(params, key);

export function readMisconfigOrdering(params: URLSearchParams): MisconfigOrdering {
  const parsed = MisconfigOrderingSchema.safeParse(params.get('ordering'));
  return parsed.success ? parsed.data : DEFAULT_MISCONFIG_ORDERING;
}

export const withMisconfigParams = (
  params: URLSearchParams,
  changes: Partial<Record<MisconfigParam, FilterParamValue>>,
): URLSearchParams => withFilterParams(params, changes, DEFAULT_MISCONFIG_ORDERING);

export const misconfigApiQuery = (params: URLSearchParams): QueryParams => ({
  ...Object.fromEntries(params),
  ordering: readMisconfigOrdering(params),
});
