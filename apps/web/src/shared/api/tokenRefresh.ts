import { API_BASE, TokenPairSchema } from '@soc/contracts';
import { reportMessage } from '../errors/errorReporter.ts';
import { authStore, type StoredAuth } from './authStore.ts';
import { ApiError } from './errors.ts';
import { expiresWithin } from './jwt.ts';

/** Refresh this long before the access token expires, so a call never leaves with a dead token. */
export const REFRESH_MARGIN_MS = 30_000;

const REFRESH_URL = `${API_BASE}/auth/token/refresh/`;
/** Web Locks name shared by all tabs of the portal. */
const REFRESH_LOCK = 'soc-portal:token-refresh';

let inFlight: Promise<StoredAuth> | null = null;

/**
 * Renews the token pair. Single-flight: concurrent callers share one request, because refresh
 * tokens rotate and a second use of the same one would revoke the whole session. Tabs are
 * serialised with a Web Lock for the same reason. When the server refuses the refresh token
 * the session ends (forced logout) and the failure is reported.
 *
 * @param rejectedAccess the access token the server has just refused (401), if any: a token
 *   renewed meanwhile by another tab is then good enough and no new refresh is needed.
 */
export function refreshSession(rejectedAccess?: string): Promise<StoredAuth> {
  inFlight ??= withTabLock(() => refreshUnlessDone(rejectedAccess)).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** Refreshes first when the access token is about to expire; returns the session to use. */
export async function ensureFreshSession(): Promise<StoredAuth> {
  const auth = authStore.get();
  if (!auth) throw new ApiError({ kind: 'unauthenticated' });
  if (!expiresWithin(auth.access, REFRESH_MARGIN_MS)) return auth;
  return refreshSession();
}

async function withTabLock<T>(task: () => Promise<T>): Promise<T> {
  // Web Locks are missing in old browsers and jsdom; one tab then simply runs unserialised.
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return task();
  return await locks.request(REFRESH_LOCK, task);
}

async function refreshUnlessDone(rejectedAccess: string | undefined): Promise<StoredAuth> {
  // Another tab may have refreshed while this one waited for the lock.
  const auth = authStore.reload();
  if (!auth) throw new ApiError({ kind: 'unauthenticated' });
  const renewedElsewhere = rejectedAccess !== undefined && auth.access !== rejectedAccess;
  if (renewedElsewhere || (rejectedAccess === undefined && !expiresWithin(auth.access, REFRESH_MARGIN_MS))) {
    return auth;
  }
  return requestRefresh(auth);
}

async function requestRefresh(auth: StoredAuth): Promise<StoredAuth> {
  let response: Response;
  try {
    response = await fetch(REFRESH_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refresh: auth.refresh }),
    });
  } catch (cause) {
    // Offline or server down: the session may still be valid, so keep it and let the call fail.
    throw new ApiError({ kind: 'network', cause });
  }

  if (response.status >= 400 && response.status < 500) {
    reportMessage('Token refresh refused', {
      level: 'warning',
      tags: { source: 'token-refresh', status: String(response.status) },
    });
    endSessionIfUnchanged(auth);
    throw new ApiError({ kind: 'unauthenticated', status: response.status });
  }
  if (!response.ok) {
    reportMessage('Token refresh failed', {
      level: 'error',
      tags: { source: 'token-refresh', status: String(response.status) },
    });
    throw new ApiError({ kind: 'http', status: response.status, data: await readJson(response) });
  }

  const parsed = TokenPairSchema.safeParse(await readJson(response));
  if (!parsed.success) {
    reportMessage('Token refresh answered an unexpected body', { tags: { source: 'token-refresh' } });
    endSessionIfUnchanged(auth);
    throw new ApiError({ kind: 'unauthenticated', status: response.status });
  }
  // A logout during the request must win: do not resurrect a session the user has just ended.
  if (authStore.get()?.refresh !== auth.refresh) throw new ApiError({ kind: 'unauthenticated' });
  authStore.setTokens(parsed.data, auth.tokenType);
  return authStore.get() ?? auth;
}

function endSessionIfUnchanged(auth: StoredAuth): void {
  if (authStore.get()?.refresh === auth.refresh) authStore.clear('forced');
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}

/** Ends a session whose renewed token was still refused; reported like a failed refresh. */
export function forceLogout(reason: string): void {
  reportMessage(reason, { level: 'warning', tags: { source: 'token' } });
  authStore.clear('forced');
}
