import { joinList, splitList } from '@soc/contracts';
import { readStorageJson, STORAGE_KEYS, writeStorage } from './storage.ts';

/**
 * List filters live in the URL query string and in browser storage under `filters`, one query
 * string per entity (`{"incidents": "status__in=1,2&ordering=-created"}`), so that a reload, a
 * new tab and back/forward all restore them (design §7).
 */
type StoredFilters = Record<string, string>;

const readAll = (): StoredFilters => {
  const value = readStorageJson(STORAGE_KEYS.filters);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
};

/** The stored query string of an entity's list ('' when none). */
export function readStoredFilters(entity: string): string {
  return readAll()[entity] ?? '';
}

/** Stores an entity's query string; an empty one removes the entry. */
export function writeStoredFilters(entity: string, query: string): void {
  const all = readAll();
  const normalized = query.startsWith('?') ? query.slice(1) : query;
  if (normalized) all[entity] = normalized;
  else delete all[entity];
  writeStorage(STORAGE_KEYS.filters, Object.keys(all).length > 0 ? JSON.stringify(all) : null);
}

/** Search parameters whose text is trimmed (design §7). */
const TRIMMED_PARAMS = new Set(['search']);

/**
 * The filters a list opened at `url` starts with, as usePersistedFilters gives them on its first
 * render: the query string, else the stored one. For a page's requests sent before it renders.
 */
export function initialFilterParams(entity: string, url: URL): URLSearchParams {
  const query = url.search.replace(/^\?/, '');
  return normalizeFilterParams(new URLSearchParams(query === '' ? readStoredFilters(entity) : query));
}

/**
 * Cleans filter parameters the way every list does: search text is trimmed, empty values are
 * dropped, and keys are sorted so that equal filters give equal strings (and equal query keys).
 */
export function normalizeFilterParams(params: URLSearchParams): URLSearchParams {
  const entries: Array<[string, string]> = [];
  for (const [key, rawValue] of params) {
    const value = TRIMMED_PARAMS.has(key) ? rawValue.trim() : rawValue;
    if (value !== '') entries.push([key, value]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(entries);
}

/** Builds filter parameters from values; null, undefined, '' and [] are left out, arrays are comma-joined. */
export function filtersToParams(
  values: Record<string, string | number | boolean | ReadonlyArray<string | number> | null | undefined>,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue;
    const text = Array.isArray(value) ? joinList(value) : String(value);
    params.set(key, text);
  }
  return normalizeFilterParams(params);
}

/** A value of a list parameter as screens set it; null, undefined, '' and [] remove the parameter. */
export type FilterParamValue = string | number | boolean | ReadonlyArray<string | number> | null | undefined;

/**
 * New parameters with `changes` applied: lists are joined (`joinList`), empty values remove their
 * parameter, the list's default ordering is left implicit, and the result is normalised.
 */
export function withFilterParams(
  params: URLSearchParams,
  changes: Partial<Record<string, FilterParamValue>>,
  defaultOrdering: string,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    const text =
      value === null || value === undefined ? '' : Array.isArray(value) ? joinList(value) : String(value);
    if (text.trim() === '' || (key === 'ordering' && text === defaultOrdering)) next.delete(key);
    else next.set(key, text);
  }
  return normalizeFilterParams(next);
}

/** What `sanitizeFilterParams` needs of a parameter's schema. */
export type ParamSchema = { safeParse(value: unknown): { success: boolean } };

/**
 * Keeps what a list can send: parameters that `schemaOf` knows, with values their schema
 * accepts. A hand-edited or outdated URL (or stored entry) must not turn into a 400 on every
 * visit, so unknown keys are dropped, lists lose their invalid items and other invalid values go.
 */
export function sanitizeFilterParams(
  params: URLSearchParams,
  schemaOf: (key: string) => ParamSchema | undefined,
): URLSearchParams {
  const kept = new URLSearchParams();
  for (const [key, value] of normalizeFilterParams(params)) {
    const schema = schemaOf(key);
    if (!schema || kept.has(key)) continue;
    if (schema.safeParse(value).success) {
      kept.set(key, value);
      continue;
    }
    if (key.endsWith('__in')) {
      const items = splitList(value).filter((item) => schema.safeParse(item).success);
      if (items.length > 0) kept.set(key, joinList(items));
    }
  }
  return kept;
}

/**
 * The text the search box shows: the applied search, else one that came in the URL or a saved
 * filter and was kept out of the request (longer than the server accepts), so that the box
 * shows it with its message rather than the list silently searching nothing (issue 28).
 */
export const shownSearch = (raw: URLSearchParams, kept: URLSearchParams): string =>
  kept.get('search') ?? raw.get('search') ?? '';

/**
 * The filters in use: every parameter but the search and the sort, a date range (`…__gte` and
 * `…__lte`) counted once. What an emptied list tells besides the search (ListPage's emptyFiltered).
 */
export function countFilterParams(params: URLSearchParams): number {
  const keys = new Set<string>();
  for (const key of params.keys()) {
    if (key === 'search' || key === 'ordering') continue;
    keys.add(key.replace(/__(gte|lte)$/, ''));
  }
  return keys.size;
}

/** The values of a list parameter (see `splitList`). */
export function readListParam(params: URLSearchParams, key: string): string[] {
  const value = params.get(key);
  return value ? splitList(value) : [];
}

/** A schema of a list's orderings (a zod enum): the value it parses, or a failure. */
type OrderingSchema<Ordering extends string> = {
  safeParse(value: unknown): { success: true; data: Ordering } | { success: false };
};

/**
 * The query-string helpers of a list whose filters are `shape` and whose sort is `ordering`
 * (design §7): keep what the contract accepts, read a list filter and the ordering in effect,
 * apply changes, and build the API query (the filters with the ordering in effect).
 */
export function listQueryParams<Param extends string, Ordering extends string>(
  shape: Readonly<Record<string, ParamSchema>>,
  orderingSchema: OrderingSchema<Ordering>,
  defaultOrdering: Ordering,
) {
  const schemas = new Map<string, ParamSchema>([...Object.entries(shape), ['ordering', orderingSchema]]);
  const readOrdering = (params: URLSearchParams): Ordering => {
    const parsed = orderingSchema.safeParse(params.get('ordering'));
    return parsed.success ? parsed.data : defaultOrdering;
  };
  return {
    /** Keeps the known parameters with values the contract accepts (a stale URL must not give a 400). */
    sanitize: (params: URLSearchParams): URLSearchParams =>
      sanitizeFilterParams(params, (key) => schemas.get(key)),
    readList: (params: URLSearchParams, key: Param): string[] => readListParam(params, key),
    readOrdering,
    withParams: (
      params: URLSearchParams,
      changes: Partial<Record<Param, FilterParamValue>>,
    ): URLSearchParams => withFilterParams(params, changes, defaultOrdering),
    apiQuery: (params: URLSearchParams): Record<string, string> => ({
      ...Object.fromEntries(params),
      ordering: readOrdering(params),
    }),
  };
}
