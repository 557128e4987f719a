/** Query keys of the reports screens. */
export const reportKeys = {
  all: ['reports'] as const,
  lists: () => [...reportKeys.all, 'list'] as const,
  list: (filters: string) => [...reportKeys.lists(), filters] as const,
  tasks: () => [...reportKeys.all, 'tasks'] as const,
  recipientRules: (systems: readonly string[]) => [...reportKeys.all, 'recipientRules', ...systems] as const,
};
