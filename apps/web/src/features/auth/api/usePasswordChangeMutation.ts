import { DetailSchema, type PasswordChangeRequest } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';

/**
 * Changes the signed-in user's password (PUT /auth/password_change/). Errors are not toasted
 * here: field errors belong on the form, which shows the rest itself.
 */
export function usePasswordChangeMutation() {
  return useMutation({
    mutationFn: (request: PasswordChangeRequest) =>
      apiRequest('/auth/password_change/', {
        method: 'PUT',
        body: request,
        schema: DetailSchema,
        notify: false,
      }),
  });
}
