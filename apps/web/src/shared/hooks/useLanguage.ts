import type { Language } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { isLocale } from '../i18n/catalog.ts';
import { i18n as appI18n } from '../i18n/i18n.ts';

/** The interface language, sent as `language` so that the server localises titles. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : 'en';
}

/** The same outside React (a page's requests sent before it renders). */
export function currentLanguage(): Language {
  return isLocale(appI18n.language) ? appI18n.language : 'en';
}
