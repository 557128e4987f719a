import type { SystemScope } from '../core/auth.ts';

export type { SystemScope } from '../core/auth.ts';

/** The systems both a caller's scope and a `system__in` filter allow; null means all. */
export function effectiveSystems(
  filters: { system__in?: number[] | undefined },
  scope: SystemScope,
): SystemScope {
  if (!filters.system__in) return scope;
  return scope ? filters.system__in.filter((id) => scope.includes(id)) : filters.system__in;
}
