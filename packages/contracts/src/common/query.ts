import { z } from 'zod';

/**
 * The values of a `field__in` list: comma-separated, where a value that holds a comma (or a
 * backslash) writes it as `\,` (`\\`). Values are trimmed; empty ones are dropped.
 */
export function splitList(text: string): string[] {
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) current += text[++i];
    else if (ch === ',') {
      values.push(current);
      current = '';
    } else current += ch;
  }
  values.push(current);
  return values.map((v) => v.trim()).filter(Boolean);
}

/** The text of a `field__in` list, escaping what `splitList` reads back. */
export const joinList = (values: readonly (string | number)[]): string =>
  values.map((v) => String(v).replace(/[\\,]/g, (ch) => `\\${ch}`)).join(',');

/** A `field__in` list parameter (see `splitList`) of items that `item` validates. */
export const csvList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? splitList(value) : value),
    z.array(item).min(1, { error: 'Give at least one value.' }).max(200),
  );

/** A positive integer id in a query string. */
export const queryId = z.coerce.number().int().positive();

/**
 * The latest instant a date filter takes: 9999-12-31T23:59:59.999Z, the last that ISO 8601's
 * four-digit years and PostgreSQL's usual date text both write (later ones answered 500).
 */
export const QUERY_MILLIS_MAX = 253_402_300_799_999;
/** The message of a date filter outside 1970-01-01 … 9999-12-31 (localised by the server). */
export const QUERY_MILLIS_MESSAGE =
  'Enter a millisecond timestamp from 0 (1970-01-01) to 253402300799999 (9999-12-31T23:59:59.999Z).';

/** A millisecond timestamp in a query string, 1970-01-01 … 9999-12-31. */
export const queryMillis = z.coerce
  .number({ error: QUERY_MILLIS_MESSAGE })
  .int({ error: QUERY_MILLIS_MESSAGE })
  .min(0, { error: QUERY_MILLIS_MESSAGE })
  .max(QUERY_MILLIS_MAX, { error: QUERY_MILLIS_MESSAGE });

/** `true`/`false` (also `1`/`0`, `True`/`False`) in a query string. */
export const queryBool = z
  .enum(['true', 'false', 'True', 'False', '1', '0'])
  .transform((v) => v === 'true' || v === 'True' || v === '1');

/** The language of localised titles (product §A7). */
export const LanguageSchema = z.enum(['ru', 'en']);
export type Language = z.infer<typeof LanguageSchema>;

/** The longest free-text search the API accepts; the web app refuses longer ones as typed. */
export const SEARCH_MAX_LENGTH = 200;

/** Free-text search, trimmed; empty means no search. */
export const searchText = z
  .string()
  .max(SEARCH_MAX_LENGTH)
  .transform((v) => v.trim());
