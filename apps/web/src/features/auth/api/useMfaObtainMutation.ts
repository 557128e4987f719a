import { TokenPairSchema, type MfaObtainRequest } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, authStore, type TokenType } from '@/shared/api/index.ts';

/**
 * Completes a sign-in with the second-factor PIN; errors are shown in the PIN tooltip. The
 * tokens keep the type of the sign-in they complete (password, OIDC or SSO).
 */
export async function obtainWithPin({
  input,
  tokenType = 'SOCPortal',
}: {
  input: MfaObtainRequest;
  tokenType?: TokenType;
}): Promise<void> {
  const pair = await apiRequest('/auth/token/mfa/obtain/', {
    method: 'POST',
    body: input,
    schema: TokenPairSchema,
    auth: 'none',
    notify: false,
  });
  authStore.setTokens(pair, tokenType);
}

export function useMfaObtainMutation() {
  return useMutation({ mutationFn: obtainWithPin });
}
