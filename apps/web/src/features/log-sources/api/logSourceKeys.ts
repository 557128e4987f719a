/** Query keys of the log sources screen. */
export const logSourceKeys = {
  all: ['logsources'] as const,
  list: (filters: string, page: number) => [...logSourceKeys.all, 'list', filters, page] as const,
  summary: (filters: string) => [...logSourceKeys.all, 'summary', filters] as const,
};
