import { i18n } from '../i18n/i18n.ts';
import { formatNumber } from '../lib/formatNumber.ts';
import { notifyError } from '../ui/notifications.tsx';
import { ApiError, describeErrorLines } from './errors.ts';

/**
 * Shows an API error as a toast: the caller's message (or a generic one) and the description
 * from the answer (design §7). Aborted requests and ended sessions show nothing: the first are
 * expected, the second hand over to the login screen.
 */
export function notifyApiError(error: unknown, message?: string): void {
  if (!(error instanceof ApiError)) {
    notifyError({ title: message ?? i18n.t('errors.requestFailed') });
    return;
  }
  if (error.kind === 'aborted' || error.kind === 'unauthenticated') return;
  const title = message ?? i18n.t('errors.requestFailed');
  notifyError({ title, description: errorDescription(error) });
}

const gigabytes = (bytes: unknown) =>
  typeof bytes === 'number' ? formatNumber(bytes / 1024 ** 3, undefined, 1) : '?';

/** The server's 507 of an upload past its system's storage quota, in the user's language. */
function storageQuotaLine(error: ApiError): string | null {
  const data = error.data as { code?: unknown; used_bytes?: unknown; quota_bytes?: unknown } | null;
  if (error.status !== 507 || data?.code !== 'storage_quota_exceeded') return null;
  return i18n.t('errors.storageQuota', {
    used: gigabytes(data.used_bytes),
    quota: gigabytes(data.quota_bytes),
  });
}

/** The lines that explain an error to the user. */
export function errorDescription(error: ApiError): string[] {
  switch (error.kind) {
    case 'network':
      return [i18n.t('errors.network')];
    case 'invalid-response':
      return [i18n.t('errors.invalidResponse')];
    case 'http': {
      const quota = storageQuotaLine(error);
      if (quota) return [quota];
      const lines = describeErrorLines(error);
      if (lines.length === 0) lines.push(i18n.t('errors.httpStatus', { status: error.status ?? '' }));
      if (error.retryAfterSeconds !== null)
        lines.push(i18n.t('errors.retryAfter', { seconds: error.retryAfterSeconds }));
      return lines;
    }
    default:
      return [];
  }
}
