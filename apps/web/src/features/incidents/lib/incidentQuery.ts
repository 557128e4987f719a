import {
  DEFAULT_INCIDENT_ORDERING,
  IncidentFiltersShape,
  IncidentOrderingSchema,
  type IncidentOrdering,
  type Language,
} from '@soc/contracts';
import type { Dayjs } from 'dayjs';
import type { QueryParams } from '@/shared/api/index.ts';
import { readListParam, sanitizeFilterParams, withFilterParams } from '@/shared/lib/filters.ts';

/** The entry of the incident list under the `filters` storage key. */
export const INCIDENTS_FILTER_ENTITY = 'incidents';

/** A parameter of the incident list's query string: a filter, `search` or `ordering`. */
export type IncidentParam = Exclude<keyof typeof IncidentFiltersShape, 'language'>;

/** A value to set; null, '' and [] remove the parameter (design §7). */
export type IncidentParamValue =
  string | number | boolean | ReadonlyArray<string | number> | null | undefined;

const PARAM_SCHEMAS = new Map(
  Object.entries(IncidentFiltersShape).filter(([key]) => key !== 'language') as Array<
    [IncidentParam, (typeof IncidentFiltersShape)[IncidentParam]]
  >,
);

/** True for the parameters the list understands. */
export const isIncidentParam = (key: string): key is IncidentParam => PARAM_SCHEMAS.has(key as IncidentParam);

/** Keeps what the incident list can send (see `sanitizeFilterParams`). */
export const sanitizeIncidentParams = (params: URLSearchParams): URLSearchParams =>
  sanitizeFilterParams(params, (key) => (isIncidentParam(key) ? PARAM_SCHEMAS.get(key) : undefined));

/** The values of a list parameter. */
export const readList = (params: URLSearchParams, key: IncidentParam): string[] => readListParam(params, key);

/** A millisecond-timestamp parameter, or null. */
export function readMillis(params: URLSearchParams, key: IncidentParam): number | null {
  const value = params.get(key);
  if (value === null || !/^\d+$/.test(value)) return null;
  return Number(value);
}

/** A true/false parameter as 'true' | 'false', or null. */
export function readBool(params: URLSearchParams, key: IncidentParam): 'true' | 'false' | null {
  const value = params.get(key)?.toLowerCase();
  if (value === 'true' || value === '1') return 'true';
  if (value === 'false' || value === '0') return 'false';
  return null;
}

/** The sort order in effect (the default, -created, when none is set). */
export function readOrdering(params: URLSearchParams): IncidentOrdering {
  const parsed = IncidentOrderingSchema.safeParse(params.get('ordering'));
  return parsed.success ? parsed.data : DEFAULT_INCIDENT_ORDERING;
}

/** New parameters with `changes` applied (see `withFilterParams`). */
export const withParams = (
  params: URLSearchParams,
  changes: Partial<Record<IncidentParam, IncidentParamValue>>,
): URLSearchParams => withFilterParams(params, changes, DEFAULT_INCIDENT_ORDERING);

/** The query of GET /soc/incs/ and the CSV exports for these parameters. */
export function incidentApiQuery(params: URLSearchParams, language: Language): QueryParams {
  return { ...Object.fromEntries(params), ordering: readOrdering(params), language };
}

/** Parameters that are neither search nor sort: the count shown on the filter toggle. */
export function countActiveFilters(params: URLSearchParams): number {
  const keys = new Set<string>();
  for (const key of params.keys()) {
    if (key === 'search' || key === 'ordering') continue;
    // A date range is one filter, not two.
    keys.add(key.replace(/__(gte|lte)$/, ''));
  }
  return keys.size;
}

/**
 * A date range as `…__gte`/`…__lte` changes: from the start of its first day to the end of
 * its last (design §7); an open end removes its bound, null clears the range.
 */
export function dateRangeChanges(
  field: 'created' | 'updated' | 'notified' | 'resolutiondate' | 'sla',
  range: readonly [Dayjs | null, Dayjs | null] | null,
): Partial<Record<IncidentParam, number | null>> {
  const [start, end] = range ?? [null, null];
  return {
    [`${field}__gte`]: start ? start.startOf('day').valueOf() : null,
    [`${field}__lte`]: end ? end.endOf('day').valueOf() : null,
  };
}
