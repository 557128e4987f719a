import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/shared/api/index.ts';
import { apiTokenKeys } from './apiTokenKeys.ts';

/** Revokes a personal token (DELETE /auth/tokens/{id}/); it stops working at once. */
export function useRevokeApiTokenMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`/auth/tokens/${id}/`, { method: 'DELETE', schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
