import { ApiTokenCreatedSchema, type PersonalTokenCreate } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { apiTokenKeys } from './apiTokenKeys.ts';

/** Creates a read-only personal token; the answer holds the secret, shown once. Errors go to the form. */
export function useCreateApiTokenMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PersonalTokenCreate) =>
      apiRequest('/auth/tokens/', {
        method: 'POST',
        body: request,
        schema: ApiTokenCreatedSchema,
        notify: false,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
