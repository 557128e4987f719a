/** Query keys of the mail quarantine (the staff area, design §9). */
export const socMailKeys = {
  /** Everything the screen shows: a release or a delete refreshes it all. */
  all: ['soc-mail'] as const,
  list: (filters: string, page: number) => [...socMailKeys.all, 'list', filters, page] as const,
  detail: (id: number) => [...socMailKeys.all, 'detail', id] as const,
};
