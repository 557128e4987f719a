export { apiRequest, apiUrl, parseRetryAfter } from './client.ts';
export type { ApiRequestOptions, AuthMode, HttpMethod, QueryParams } from './client.ts';
export { ApiError, describeErrorLines, isAbortedError, NON_FIELD_ERRORS } from './errors.ts';
export type { ApiErrorKind, FieldMessages } from './errors.ts';
export { authStore, authorizationHeader, useAuthSession, useIsAuthenticated } from './authStore.ts';
export type { LogoutReason, StoredAuth, TokenType } from './authStore.ts';
export { notifyApiError, errorDescription } from './notifyApiError.ts';
export { ensureFreshSession, refreshSession, REFRESH_MARGIN_MS } from './tokenRefresh.ts';
