import dayjs from 'dayjs';
import 'dayjs/locale/ru';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage.ts';
import { isLocale, LOCALES, type Locale } from './catalog.ts';
import { en } from './locales/en.ts';
import { ru } from './locales/ru.ts';

/**
 * The locale to start with: the persisted choice, else the browser's language: Russian when it
 * starts with `ru`, English otherwise (spec 000 §1).
 */
export function detectInitialLocale(stored: string | null, navigatorLanguage: string | undefined): Locale {
  if (isLocale(stored)) return stored;
  return navigatorLanguage?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

/** Mirrors the interface language into storage, `<html lang>` and dayjs. */
function applyLocale(locale: Locale): void {
  writeStorage(STORAGE_KEYS.locale, locale);
  document.documentElement.lang = locale;
  dayjs.locale(locale);
}

/** The application's i18next instance (a dedicated one, so tests and the app share no global). */
export const i18n = i18next.createInstance();

const initialLocale = detectInitialLocale(readStorage(STORAGE_KEYS.locale), navigator.language);

i18n.on('languageChanged', (lng) => {
  if (isLocale(lng)) applyLocale(lng);
});

// Resources are bundled, so initialisation completes synchronously (initAsync: false).
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, ru: { translation: ru } },
  lng: initialLocale,
  fallbackLng: 'en',
  supportedLngs: [...LOCALES],
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** The current interface language. */
export const currentLocale = (): Locale => (isLocale(i18n.language) ? i18n.language : 'en');

/** Switches the interface language; the choice is persisted under `locale`. */
export function setLocale(locale: Locale): void {
  void i18n.changeLanguage(locale);
}
