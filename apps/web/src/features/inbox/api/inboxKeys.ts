/** Query keys of the notification centre: the live signal refreshes them all. */
export const inboxKeys = {
  all: ['inbox'] as const,
  count: () => [...inboxKeys.all, 'count'] as const,
  /** Every list of the panel (all items, the unread only). */
  lists: () => [...inboxKeys.all, 'list'] as const,
  list: (unreadOnly: boolean) => [...inboxKeys.lists(), { unreadOnly }] as const,
};
