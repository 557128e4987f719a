/**
 * The patterns of the one CSV cell rule (lib/csv.ts explains it), shared by the JavaScript writer
 * and the SQL functions of db/derived/csv.ts, so that both follow one rule.
 */

/** A formula start, as a regular-expression bracket body (the same in JavaScript and PostgreSQL). */
const FORMULA_START = '=+@\\t\\r-';
/** What a reader may split a cell on: the list separators of every locale and line breaks. */
const SPLIT_AT = ',;\\t\\r\\n';
/** A cell holding one of these is quoted. */
const QUOTE_WHEN = `"${SPLIT_AT}`;

/**
 * The place of an apostrophe: before a formula start at the beginning of a cell or after a
 * separator. Zero-width, so that every place is judged once in either engine (`\t\t=`: all three).
 */
export const CSV_FORMULA_PATTERN = `(?<=^|[${SPLIT_AT}])(?=[${FORMULA_START}])`;
/** A cell that must be quoted. */
export const CSV_QUOTE_PATTERN = `[${QUOTE_WHEN}]`;
