/** Query keys of the asset screens. */
export const assetKeys = {
  all: ['assets'] as const,
  list: (filters: string, page: number) => [...assetKeys.all, 'list', filters, page] as const,
  choices: () => [...assetKeys.all, 'choices'] as const,
  asset: (cmdbId: string) => [...assetKeys.all, 'item', cmdbId] as const,
  incidents: (cmdbId: string) => [...assetKeys.asset(cmdbId), 'incidents'] as const,
  incidentsCount: (cmdbId: string) => [...assetKeys.asset(cmdbId), 'incidents-count'] as const,
  software: (cmdbId: string, search: string) => [...assetKeys.asset(cmdbId), 'software', search] as const,
  softwareCount: (cmdbId: string) => [...assetKeys.asset(cmdbId), 'software-count'] as const,
};
