import type { Language } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { isLocale } from '../i18n/catalog.ts';

/** The interface language, sent as `language` so that the server localises titles. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : 'en';
}
