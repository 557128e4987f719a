import type { DerivedSql } from './derived-sql.ts';

/**
 * CSV cells. csv_safe neutralises spreadsheet formulas (CSV injection) with a leading apostrophe
 * and turns '' into NULL (COPY writes NULL as an empty, unquoted cell); csv_cell also quotes as
 * RFC 4180 says, for the engines that format lines themselves. NULL is an empty cell.
 */
export const csvSql: DerivedSql = {
  name: 'csv cells',
  statements: [
    `CREATE OR REPLACE FUNCTION csv_safe(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v = '' THEN NULL
              WHEN left(v, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || v
              ELSE v END
$$`,
    `CREATE OR REPLACE FUNCTION csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN csv_safe(v) ~ '[",\\r\\n]' THEN '"' || replace(csv_safe(v), '"', '""') || '"'
              ELSE coalesce(csv_safe(v), '') END
$$`,
  ],
};
