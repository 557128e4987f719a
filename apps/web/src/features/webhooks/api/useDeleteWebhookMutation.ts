import { z } from 'zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { webhookKeys } from './webhookKeys.ts';

/** Deletes an endpoint with its delivery log. */
export function useDeleteWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/soc/webhooks/${id}/`, { method: 'DELETE', schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
