/** Query keys of the IOC feed page. */
export const iocFeedKeys = {
  all: ['ioc-feed'] as const,
  preview: (filters: string) => [...iocFeedKeys.all, 'preview', filters] as const,
};
