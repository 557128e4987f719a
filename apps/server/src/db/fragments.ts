import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Language } from '@soc/contracts';
import type { SystemScope } from '../core/auth.ts';

// The SQL fragments that repositories compose (design §10.2): the tenant condition, bind-parameter
// lists and the title column of a language. Only repositories import them (eslint.config.js).

/**
 * The tenant condition on a system id column: undefined for every system (drizzle's `and`
 * drops it), FALSE for none, else `column IN (scope)`. Every query of tenant data goes through
 * it, so that an empty scope can never turn into "no condition".
 */
export function inScope(column: AnyPgColumn | SQL, scope: SystemScope): SQL | undefined {
  if (scope === null) return undefined;
  if (!scope.length) return sql`FALSE`;
  return sql`${column} IN (${sql.join(
    scope.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

/** Values as a comma-separated list of bind parameters, for `IN (…)`. */
export const sqlList = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * The titled lookup tables (issue types, categories, resolutions) keep a title per language in
 * `title_ru` and `title_en`; these helpers are the one place that picks the column of a language,
 * so that no query chooses it by a comparison of its own.
 */
const TITLE_COLUMNS: Readonly<Record<Language, string>> = { ru: 'title_ru', en: 'title_en' };

/** The title column of `lang`, as raw SQL; `alias` names the table (`c.title_ru`). */
export const titleColumn = (lang: Language, alias?: string): SQL =>
  sql.raw(alias ? `${alias}.${TITLE_COLUMNS[lang]}` : TITLE_COLUMNS[lang]);

/** The title column of `lang` of a drizzle table, for a select of the query builder. */
export const titleOf = (lang: Language, table: { titleRu: AnyPgColumn; titleEn: AnyPgColumn }): SQL<string> =>
  sql<string>`${{ ru: table.titleRu, en: table.titleEn }[lang]}`;
