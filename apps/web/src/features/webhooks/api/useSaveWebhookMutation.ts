import type { WebhookEndpointCreate, WebhookEndpointUpdate } from '@soc/contracts';
import { WebhookEndpointSchema, WebhookEndpointWithSecretSchema } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { webhookKeys } from './webhookKeys.ts';

export type SaveWebhookRequest =
  { id?: undefined; body: WebhookEndpointCreate } | { id: number; body: WebhookEndpointUpdate };

/**
 * Adds an endpoint (the answer carries its secret, shown once) or changes one. Errors go to the
 * form (no default notification).
 */
export function useSaveWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: SaveWebhookRequest) =>
      request.id === undefined
        ? apiRequest('/soc/webhooks/', {
            method: 'POST',
            body: request.body,
            schema: WebhookEndpointWithSecretSchema,
            notify: false,
          })
        : {
            ...(await apiRequest(`/soc/webhooks/${request.id}/`, {
              method: 'PATCH',
              body: request.body,
              schema: WebhookEndpointSchema,
              notify: false,
            })),
            secret: null,
          },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
