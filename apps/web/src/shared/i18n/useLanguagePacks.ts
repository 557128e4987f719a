import type { Locale as AntdLocale } from 'antd/es/locale';
import { useSyncExternalStore } from 'react';
import {
  antdLocaleFor,
  startupLanguageState,
  subscribeLanguages,
  type StartupLanguageState,
} from './i18n.ts';

/** The start-up language's pack: loading, ready or failed (re-renders on change). */
export function useStartupLanguage(): StartupLanguageState {
  return useSyncExternalStore(subscribeLanguages, startupLanguageState);
}

/** antd's texts for `language` once its pack has arrived, else undefined (antd's English). */
export function useAntdLocale(language: string): AntdLocale | undefined {
  return useSyncExternalStore(subscribeLanguages, () => antdLocaleFor(language));
}
