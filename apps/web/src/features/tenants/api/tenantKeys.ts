/** Query keys of the protected systems screens. */
export const tenantKeys = {
  all: ['tenants'] as const,
  list: (filters: string) => [...tenantKeys.all, 'list', filters] as const,
  card: (id: number) => [...tenantKeys.all, 'card', id] as const,
  byIsId: (isId: string) => [...tenantKeys.all, 'by-is-id', isId.toUpperCase()] as const,
  people: (role: 'service_manager' | 'dedicated_analyst') => [...tenantKeys.all, 'people', role] as const,
};
