/**
 * Browser-storage keys of the portal. Kept in one place because logout must know which parts
 * survive it (locale, theme, list filters and the comments panel's width) and which do not (auth).
 */
export const STORAGE_KEYS = {
  auth: 'auth',
  locale: 'locale',
  theme: 'currentTheme',
  filters: 'filters',
  commentsPanelWidth: 'commentsPanelWidth',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Reads a raw value; storage can be disabled (private mode, policies), which must not break the app. */
export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Writes a raw value, or removes it when `value` is null. Failures are ignored (see readStorage). */
export function writeStorage(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Quota exceeded or storage disabled: the value simply is not persisted.
  }
}

/** Reads and JSON-parses a value; anything unparsable counts as absent. */
export function readStorageJson(key: StorageKey): unknown {
  const raw = readStorage(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
