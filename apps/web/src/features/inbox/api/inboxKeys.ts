/** Query keys of the notification centre: the live signal refreshes them all. */
export const inboxKeys = {
  all: ['inbox'] as const,
  count: () => [...inboxKeys.all, 'count'] as const,
  list: () => [...inboxKeys.all, 'list'] as const,
};
