import { WebhookDeliverySchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { webhookKeys } from './webhookKeys.ts';

/** Queues a test event, or sends a logged delivery again (`deliveryId`). */
export function useSendWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: number; deliveryId?: number }) =>
      apiRequest(
        deliveryId === undefined
          ? `/soc/webhooks/${id}/test/`
          : `/soc/webhooks/${id}/deliveries/${deliveryId}/resend/`,
        { method: 'POST', schema: WebhookDeliverySchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
