import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SystemScope } from '../core/auth.ts';

export type { SystemScope } from '../core/auth.ts';

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

/** The systems both a caller's scope and a `system__in` filter allow; null means all. */
export function effectiveSystems(
  filters: { system__in?: number[] | undefined },
  scope: SystemScope,
): SystemScope {
  if (!filters.system__in) return scope;
  return scope ? filters.system__in.filter((id) => scope.includes(id)) : filters.system__in;
}
