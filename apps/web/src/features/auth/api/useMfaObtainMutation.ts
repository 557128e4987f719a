import { TokenPairSchema, type MfaObtainRequest } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, authStore } from '../../../shared/api/index.ts';

/** Completes a sign-in with the second-factor PIN; errors are shown in the PIN tooltip. */
export async function obtainWithPin(input: MfaObtainRequest): Promise<void> {
  const pair = await apiRequest('/auth/token/mfa/obtain/', {
    method: 'POST',
    body: input,
    schema: TokenPairSchema,
    auth: 'none',
    notify: false,
  });
  authStore.setTokens(pair, 'SOCPortal');
}

export function useMfaObtainMutation() {
  return useMutation({ mutationFn: obtainWithPin });
}
