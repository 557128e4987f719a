import { CSV_FORMULA_PATTERN, CSV_QUOTE_PATTERN } from '../../core/csv.ts';
import type { DerivedSql } from './derived-sql.ts';

/**
 * CSV cells, the SQL twin of `lib/csv.ts` (built from its patterns, so both follow one rule).
 * csv_safe neutralises spreadsheet formulas (CSV injection) with an apostrophe at the start of
 * the cell and after every separator of any locale, and turns '' into NULL (COPY writes NULL as an
 * empty, unquoted cell); csv_cell also quotes a cell holding a separator of any locale, a quote
 * or a line break, for the engines that format lines themselves. NULL is an empty cell.
 */
export const csvSql: DerivedSql = {
  name: 'csv cells',
  statements: [
    `CREATE OR REPLACE FUNCTION csv_safe(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v = '' THEN NULL
              ELSE regexp_replace(v, '${CSV_FORMULA_PATTERN}', '''', 'g') END
$$`,
    `CREATE OR REPLACE FUNCTION csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN csv_safe(v) ~ '${CSV_QUOTE_PATTERN}' THEN '"' || replace(csv_safe(v), '"', '""') || '"'
              ELSE coalesce(csv_safe(v), '') END
$$`,
  ],
};
