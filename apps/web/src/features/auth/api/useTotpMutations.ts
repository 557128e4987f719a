import {
  MfaStatusSchema,
  TotpSetupResponseSchema,
  type TotpConfirmRequest,
  type TotpDisableRequest,
} from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/index.ts';
import { authKeys } from './authKeys.ts';

/** A new authenticator secret (not active until confirmed). */
export function useTotpSetupMutation() {
  return useMutation({
    mutationFn: () =>
      apiRequest('/auth/mfa/totp/setup/', { method: 'POST', schema: TotpSetupResponseSchema }),
  });
}

/** Confirms the app with its current code; errors are shown by the form. */
export function useTotpConfirmMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TotpConfirmRequest) =>
      apiRequest('/auth/mfa/totp/confirm/', {
        method: 'POST',
        body: request,
        schema: MfaStatusSchema,
        notify: false,
      }),
    onSuccess: (status) => queryClient.setQueryData(authKeys.mfa(), status),
  });
}

/** Turns the app off; needs the password (errors are shown by the form). */
export function useTotpDisableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TotpDisableRequest) =>
      apiRequest('/auth/mfa/totp/disable/', {
        method: 'POST',
        body: request,
        schema: MfaStatusSchema,
        notify: false,
      }),
    onSuccess: (status) => queryClient.setQueryData(authKeys.mfa(), status),
  });
}
