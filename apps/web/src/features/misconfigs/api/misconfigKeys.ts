/** Query keys of the security recommendations area (one factory, `as const`). */
export const misconfigKeys = {
  all: ['misconfigs'] as const,
  lists: () => [...misconfigKeys.all, 'list'] as const,
  list: (filters: string) => [...misconfigKeys.lists(), filters] as const,
  /** Under lists(): a status change invalidates the groups with the lists. */
  groups: (filters: string) => [...misconfigKeys.lists(), 'groups', filters] as const,
  detail: (id: number) => [...misconfigKeys.all, 'detail', id] as const,
};
