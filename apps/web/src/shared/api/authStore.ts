import type { TokenPair } from '@soc/contracts';
import { useSyncExternalStore } from 'react';
import { readStorageJson, STORAGE_KEYS, writeStorage } from '../lib/storage.ts';

/** How the session was obtained; decides the Authorization scheme (product §A3, §A7). */
export type TokenType = 'SOCPortal' | 'SSO' | 'OIDC';

/** The session kept in browser storage under `auth`. */
export interface StoredAuth {
  access: string;
  refresh: string;
  tokenType: TokenType;
}

/** Why a session ended: the user logged out, or the server refused to renew it. */
export type LogoutReason = 'logout' | 'forced';

const isStoredAuth = (value: unknown): value is StoredAuth => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.access === 'string' &&
    typeof record.refresh === 'string' &&
    (record.tokenType === 'SOCPortal' || record.tokenType === 'SSO' || record.tokenType === 'OIDC')
  );
};

const readPersisted = (): StoredAuth | null => {
  const value = readStorageJson(STORAGE_KEYS.auth);
  return isStoredAuth(value) ? value : null;
};

let current: StoredAuth | null = readPersisted();
let lastLogoutReason: LogoutReason | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/**
 * The session tokens: one source of truth for the API client (which reads and renews them) and
 * the UI (which shows the login screen when they are gone). Other tabs' changes arrive through
 * the `storage` event, so a logout or refresh in one tab applies to all.
 */
export const authStore = {
  /** The current session, or null when logged out. */
  get: (): StoredAuth | null => current,

  /** Starts or renews the session. */
  setTokens(pair: TokenPair, tokenType: TokenType = 'SOCPortal'): void {
    current = { access: pair.access, refresh: pair.refresh, tokenType };
    lastLogoutReason = null;
    writeStorage(STORAGE_KEYS.auth, JSON.stringify(current));
    emit();
  },

  /** Ends the session; locale, theme and filters are kept (product §A4). */
  clear(reason: LogoutReason = 'logout'): void {
    if (current === null) return;
    current = null;
    lastLogoutReason = reason;
    writeStorage(STORAGE_KEYS.auth, null);
    emit();
  },

  /**
   * Re-reads the persisted session. Needed right before a refresh: another tab may have
   * rotated the refresh token already, and reusing the old one would revoke the session.
   */
  reload(): StoredAuth | null {
    const persisted = readPersisted();
    if (persisted?.access !== current?.access || persisted?.refresh !== current?.refresh) {
      current = persisted;
      emit();
    }
    return current;
  },

  /** Why the last session ended (null while logged in or before any logout). */
  lastLogoutReason: (): LogoutReason | null => lastLogoutReason,

  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

window.addEventListener('storage', (event) => {
  if (event.key === STORAGE_KEYS.auth || event.key === null) authStore.reload();
});

/** The current session, re-rendering on login, refresh and logout. */
export const useAuthSession = (): StoredAuth | null =>
  useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);

/** True while a session exists. */
export const useIsAuthenticated = (): boolean => useAuthSession() !== null;

/** The Authorization header value for a session (product §A7). */
export const authorizationHeader = (auth: StoredAuth): string =>
  `${auth.tokenType === 'OIDC' ? 'OIDC' : 'Bearer'} ${auth.access}`;
