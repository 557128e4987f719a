import { MFA_MESSAGES } from '@soc/contracts';
import type { TFunction } from 'i18next';
import { ApiError } from '@/shared/api/index.ts';
import { loginErrorMessage } from './loginErrorMessage.ts';

/** What a failed second-factor call means for the login screen. */
export interface MfaFailure {
  /** The pending sign-in is gone (the "new token" error): back to the password form. */
  resetMfa: boolean;
  /** Translated message for the PIN tooltip, or under the form after a reset. */
  message: string;
  /** Seconds before another code may be requested, when the server said so. */
  retryAfterSeconds: number | null;
}

const numberField = (data: unknown, field: string): number | null => {
  if (data === null || typeof data !== 'object' || !(field in data)) return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === 'number' ? value : null;
};

/**
 * Reads a failed PIN check or resend (product §A4, §A8): an answer naming `mfa_token` ends the
 * MFA state; a wrong or expired PIN stays on the PIN entry with its message.
 */
export function mfaFailure(error: unknown, t: TFunction): MfaFailure {
  const fields = error instanceof ApiError ? error.fieldErrors : null;
  if (fields?.mfa_token) {
    const sendFailed = fields.mfa_token.includes(MFA_MESSAGES.sendFailed);
    return {
      resetMfa: true,
      message: t(sendFailed ? 'auth.mfa.sendFailed' : 'auth.mfa.tokenInvalid'),
      retryAfterSeconds: null,
    };
  }
  if (fields?.otp) {
    const expired = fields.otp.includes(MFA_MESSAGES.codeExpired);
    return {
      resetMfa: false,
      message: t(expired ? 'auth.mfa.codeExpired' : 'auth.mfa.wrongCode'),
      retryAfterSeconds: null,
    };
  }
  const retry =
    error instanceof ApiError
      ? (numberField(error.data, 'generate_challenge_timeout') ?? error.retryAfterSeconds)
      : null;
  if (retry !== null) {
    return {
      resetMfa: false,
      message: t('auth.mfa.resendIn', { time: formatCountdown(retry) }),
      retryAfterSeconds: retry,
    };
  }
  return { resetMfa: false, message: loginErrorMessage(error, t), retryAfterSeconds: null };
}

/** Seconds as m:ss (product §A4). */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
