/** Query keys of the profile settings screens. */
export const settingsKeys = {
  all: ['settings'] as const,
  notifications: () => [...settingsKeys.all, 'notifications'] as const,
  audit: (filters: string, page: number) => [...settingsKeys.all, 'audit', filters, page] as const,
};
