import {
  DEFAULT_DOCUMENT_ORDERING,
  DocumentFiltersShape,
  DocumentOrderingSchema,
  LanguageSchema,
  type DocumentOrdering,
  type Language,
} from '@soc/contracts';
import type { Dayjs } from 'dayjs';
import type { QueryParams } from '@/shared/api/index.ts';
import { readListParam, sanitizeFilterParams, withFilterParams } from '@/shared/lib/filters.ts';
import type { DocumentKindView } from './documentKinds.ts';

/** A parameter of a document list's query string: a filter, `search`, `language` or `ordering`. */
export type DocumentParam = Exclude<keyof typeof DocumentFiltersShape, 'document'>;

/** A value to set; null, '' and [] remove the parameter (design §7). */
export type DocumentParamValue = string | ReadonlyArray<string> | null | undefined;

const PARAM_SCHEMAS = new Map(
  Object.entries(DocumentFiltersShape).filter(([key]) => key !== 'document') as Array<
    [DocumentParam, (typeof DocumentFiltersShape)[DocumentParam]]
  >,
);

/**
 * Keeps what the list of this kind can send: known parameters with values the contract
 * accepts (sensors for instructions only). A hand-edited or outdated URL must not turn into a
 * 400 on every visit.
 */
export const sanitizeDocumentParams = (params: URLSearchParams, view: DocumentKindView): URLSearchParams =>
  sanitizeFilterParams(params, (key) =>
    key === 'sensors__in' && !view.hasSensors ? undefined : PARAM_SCHEMAS.get(key as DocumentParam),
  );

/** The values of a list parameter. */
export const readList = (params: URLSearchParams, key: DocumentParam): string[] => readListParam(params, key);

/** An ISO date parameter as milliseconds, or null. */
export function readDate(params: URLSearchParams, key: DocumentParam): number | null {
  const value = params.get(key);
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** The sort order in effect (the default, last update descending, when none is set). */
export function readOrdering(params: URLSearchParams): DocumentOrdering {
  const parsed = DocumentOrderingSchema.safeParse(params.get('ordering'));
  return parsed.success ? parsed.data : DEFAULT_DOCUMENT_ORDERING;
}

/** The selected document language: the `language` parameter, else the interface language. */
export function readLanguage(params: URLSearchParams, fallback: Language): Language {
  const parsed = LanguageSchema.safeParse(params.get('language'));
  return parsed.success ? parsed.data : fallback;
}

/** New parameters with `changes` applied (see `withFilterParams`). */
export const withParams = (
  params: URLSearchParams,
  changes: Partial<Record<DocumentParam, DocumentParamValue>>,
): URLSearchParams => withFilterParams(params, changes, DEFAULT_DOCUMENT_ORDERING);

/** The query of GET /soc/{kind}/ for these parameters (the language is always sent). */
export function documentApiQuery(params: URLSearchParams, language: Language): QueryParams {
  return { ...Object.fromEntries(params), ordering: readOrdering(params), language };
}

/** Parameters that are neither search, sort nor language: the count shown on the filter toggle. */
export function countActiveFilters(params: URLSearchParams): number {
  const keys = new Set<string>();
  for (const key of params.keys()) {
    if (key === 'search' || key === 'ordering' || key === 'language') continue;
    keys.add(key.replace(/__(gte|lte)$/, ''));
  }
  return keys.size;
}

/**
 * A date range as ISO `…__gte`/`…__lte` changes: from the start of its first day to the end
 * of its last (product §B5); an open end removes its bound, null clears the range.
 */
export function dateRangeChanges(
  field: 'created' | 'updated',
  range: readonly [Dayjs | null, Dayjs | null] | null,
): Partial<Record<DocumentParam, string | null>> {
  const [start, end] = range ?? [null, null];
  return {
    [`${field}__gte`]: start ? start.startOf('day').toISOString() : null,
    [`${field}__lte`]: end ? end.endOf('day').toISOString() : null,
  };
}
