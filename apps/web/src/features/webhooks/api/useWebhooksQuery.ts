import { WEBHOOK_ENDPOINTS_PAGE_SIZE, WebhookEndpointPageSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { webhookKeys } from './webhookKeys.ts';

/** One page of the webhook endpoints of the caller's systems, or of one system (GET /soc/webhooks/). */
export function useWebhooksQuery(system: number | undefined, page: number) {
  return useQuery({
    queryKey: webhookKeys.list(system, page),
    queryFn: ({ signal }) =>
      apiRequest('/soc/webhooks/', {
        schema: WebhookEndpointPageSchema,
        query: { system, page, page_size: WEBHOOK_ENDPOINTS_PAGE_SIZE },
        signal,
        abortKey: 'webhooks-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
