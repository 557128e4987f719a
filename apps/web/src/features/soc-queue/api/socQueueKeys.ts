/** Query keys of the SOC's triage queue (the staff area, design §9). */
export const socQueueKeys = {
  /** Everything the queue shows: a live event or a bulk change refreshes it all. */
  all: ['soc-queue'] as const,
  list: (filters: string) => [...socQueueKeys.all, 'list', filters] as const,
  counts: (filters: string) => [...socQueueKeys.all, 'counts', filters] as const,
  staff: (search: string) => ['soc-staff', { search }] as const,
};
