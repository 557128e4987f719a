/** Query keys of the rules area (one factory, `as const`). */
export const ruleKeys = {
  all: ['rules'] as const,
  lists: () => [...ruleKeys.all, 'list'] as const,
  list: (filters: string) => [...ruleKeys.lists(), filters] as const,
  counters: (filters: string) => [...ruleKeys.all, 'counters', filters] as const,
  coverage: (filters: string) => [...ruleKeys.all, 'coverage', filters] as const,
  technique: (id: string, filters: string) => [...ruleKeys.all, 'technique', id, filters] as const,
  detail: (id: number) => [...ruleKeys.all, 'detail', id] as const,
  byName: (name: string) => [...ruleKeys.all, 'by-name', name] as const,
  incidents: (id: number) => [...ruleKeys.all, 'incidents', id] as const,
  suggest: (field: string, text: string) => [...ruleKeys.all, 'suggest', field, text] as const,
  services: () => [...ruleKeys.all, 'services'] as const,
};
