import {
  MfaCodeSentSchema,
  MfaStatusSchema,
  TotpSetupResponseSchema,
  type TotpConfirmRequest,
  type TotpDisableRequest,
  type TotpSetupRequest,
} from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { authKeys } from './authKeys.ts';

/**
 * A new authenticator secret (not active until confirmed; an app already on stays on until
 * then). Needs the password and the current code; errors are shown by the form.
 */
export function useTotpSetupMutation() {
  return useMutation({
    mutationFn: (request: TotpSetupRequest) =>
      apiRequest('/auth/mfa/totp/setup/', {
        method: 'POST',
        body: request,
        schema: TotpSetupResponseSchema,
        notify: false,
      }),
  });
}

/** Sends an SMS code that confirms a change of second factors (when only SMS is on). */
export function useMfaChangeCodeMutation() {
  return useMutation({
    mutationFn: () =>
      apiRequest('/auth/mfa/code/', { method: 'POST', schema: MfaCodeSentSchema, notify: false }),
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

/** Turns the app off; needs the password and the app's code (errors are shown by the form). */
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
