/**
 * The one CSV cell rule of every export (incidents, audit log, IOC feed). Spreadsheets split a
 * line on the list separator of the reader's locale: `,` in en-US, `;` in ru-RU and most of
 * Europe, a tab when pasted. A cell is therefore quoted when it holds any of them (or a quote or a
 * line break), and a formula start (`= + - @`, tab, CR) is neutralised with a leading apostrophe
 * at the start of the cell and after every separator or line break inside it, so that a reader
 * who splits on another separator, or ignores the quotes, still sees no formula
 * (`atk2;=1+1;` → `"atk2;'=1+1;"`).
 *
 * The exports that PostgreSQL formats use `csv_safe` and `csv_cell` (`db/derived/csv.ts`), whose
 * bodies are built from the patterns of core/csv.ts; a test checks that both agree on random text.
 */

import { CSV_FORMULA_PATTERN, CSV_QUOTE_PATTERN } from '../core/csv.ts';

const formula = new RegExp(CSV_FORMULA_PATTERN, 'g');
const needsQuotes = new RegExp(CSV_QUOTE_PATTERN);

/** The text of a cell with every formula start neutralised; no quoting (for writers that quote). */
export const csvSafe = (value: string): string => value.replace(formula, "'");

/** A finished cell: neutralised, then quoted as RFC 4180 says when needed; null is an empty cell. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const safe = csvSafe(String(value));
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record with its LF line end. */
export const csvLine = (cells: readonly (string | number | null | undefined)[]): string =>
  `${cells.map(csvCell).join(',')}\n`;
