import { WEBHOOK_DELIVERIES_PAGE_SIZE, WebhookDeliveryPageSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { webhookKeys } from './webhookKeys.ts';

/** One page of an endpoint's delivery log, newest first; refreshed while deliveries are pending. */
export function useWebhookDeliveriesQuery(id: number, page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/webhooks/${id}/deliveries/`, {
        schema: WebhookDeliveryPageSchema,
        query: { page, page_size: WEBHOOK_DELIVERIES_PAGE_SIZE },
        signal,
        notify: false,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.results.some((d) => d.status === 'pending' || d.status === 'retrying')
        ? 2_000
        : false,
  });
}
