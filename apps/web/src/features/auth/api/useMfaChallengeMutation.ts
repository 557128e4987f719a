import { MfaPendingSchema, type MfaChallengeRequest } from '@soc/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';

/** Asks for a new second-factor code (allowed once the countdown has run out). */
export function useMfaChallengeMutation() {
  return useMutation({
    mutationFn: (input: MfaChallengeRequest) =>
      apiRequest('/auth/token/mfa/generate_challenge/', {
        method: 'POST',
        body: input,
        schema: MfaPendingSchema,
        auth: 'none',
        notify: false,
      }),
  });
}
