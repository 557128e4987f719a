import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage.ts';

/** Colour scheme of the interface; light is the default (product §A1). */
export type ThemeMode = 'light' | 'dark';

export const isThemeMode = (value: unknown): value is ThemeMode => value === 'light' || value === 'dark';

/** The persisted theme (`currentTheme`), or light. */
export const readThemeMode = (): ThemeMode => {
  const stored = readStorage(STORAGE_KEYS.theme);
  return isThemeMode(stored) ? stored : 'light';
};

/** Persists the theme and exposes it to CSS as `<html data-theme>` and `color-scheme`. */
export function applyThemeMode(mode: ThemeMode): void {
  writeStorage(STORAGE_KEYS.theme, mode);
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
}
