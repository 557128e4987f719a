import type { TFunction } from 'i18next';
import { ApiError, describeErrorLines, errorDescription } from '@/shared/api/index.ts';

/**
 * The text shown under the login form for a failed sign-in: the server's own explanation
 * (wrong credentials, throttling with its wait, field messages) where it gave one, else a
 * translated description of what went wrong.
 */
export function loginErrorMessage(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return t('auth.login.failed');
  if (error.kind === 'http') {
    const lines = describeErrorLines(error);
    if (error.retryAfterSeconds !== null)
      lines.push(t('errors.retryAfter', { seconds: error.retryAfterSeconds }));
    return lines.length > 0 ? lines.join(' ') : t('auth.login.failed');
  }
  const described = errorDescription(error);
  return described.length > 0 ? described.join(' ') : t('auth.login.failed');
}
