import { TokenObtainResponseSchema, type TokenObtainRequest } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, authStore } from '@/shared/api/index.ts';

/**
 * Outcome of a password sign-in: a session, or a second factor to complete (product §A4,
 * "MFA pending": a code was sent; another may be requested after `challengeTimeoutSeconds`).
 */
export type LoginResult =
  | { kind: 'authenticated' }
  | {
      kind: 'mfa-required';
      mfaToken: string;
      challengeTimeoutSeconds: number;
      /** Where the code comes from: an SMS, or the user's authenticator app (no resend). */
      method: 'sms' | 'totp';
    };

/** Signs in with username and password. Errors are shown by the form, never as toasts. */
export async function login(credentials: TokenObtainRequest): Promise<LoginResult> {
  const answer = await apiRequest('/auth/token/obtain/', {
    method: 'POST',
    body: credentials,
    schema: TokenObtainResponseSchema,
    auth: 'none',
    notify: false,
  });
  if ('access' in answer) {
    authStore.setTokens(answer, 'SOCPortal');
    return { kind: 'authenticated' };
  }
  return {
    kind: 'mfa-required',
    mfaToken: answer.mfa_token,
    challengeTimeoutSeconds: answer.generate_challenge_timeout,
    method: answer.method ?? 'sms',
  };
}

/** Mutation around login(); on success with tokens the auth gate shows the shell by itself. */
export function useLoginMutation() {
  return useMutation({
    mutationFn: login,
    // A failed sign-in leaves no half session behind (product §A4).
    onError: () => authStore.clear('logout'),
  });
}
