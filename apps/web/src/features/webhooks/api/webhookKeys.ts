/** Query keys of the webhook endpoints and their delivery logs. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (system: number | undefined, page: number) =>
    [...webhookKeys.all, 'list', system ?? 'all', page] as const,
  deliveries: (id: number, page: number) => [...webhookKeys.all, 'deliveries', id, page] as const,
};
