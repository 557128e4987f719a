import { WebhookEndpointWithSecretSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { webhookKeys } from './webhookKeys.ts';

/** A new signing secret (shown once); the old one keeps signing for 24 hours. */
export function useRotateWebhookSecretMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/soc/webhooks/${id}/rotate_secret/`, {
        method: 'POST',
        schema: WebhookEndpointWithSecretSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
