import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { importWithTimeout } from '../lib/chunkLoad.ts';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage.ts';
import { isLocale, LOCALES, type LanguagePack, type Locale } from './catalog.ts';
import { STARTUP_TEXTS } from './startupTexts.ts';

/**
 * The locale to start with: the persisted choice, else the browser's language: Russian when it
 * starts with `ru`, English otherwise (product §A1).
 */
export function detectInitialLocale(stored: string | null, navigatorLanguage: string | undefined): Locale {
  if (isLocale(stored)) return stored;
  return navigatorLanguage?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

/** Mirrors the interface language into storage, `<html lang>` and dayjs. */
function applyLocale(locale: Locale): void {
  writeStorage(STORAGE_KEYS.locale, locale);
  document.documentElement.lang = locale;
  // a no-op until the language's pack has registered its dayjs locale; called again then
  dayjs.locale(locale);
}

/** The application's i18next instance (a dedicated one, so tests and the app share no global). */
export const i18n = i18next.createInstance();

const initialLocale = detectInitialLocale(readStorage(STORAGE_KEYS.locale), navigator.language);

i18n.on('languageChanged', (lng) => {
  if (isLocale(lng)) applyLocale(lng);
});

// Only the start-up texts are bundled; each language's catalog is a chunk of its own
// (packs/<locale>.ts, issue 14: the initial JS carries no catalog). Initialisation therefore
// completes synchronously (initAsync: false) and the catalog is added when it arrives.
void i18n.use(initReactI18next).init({
  // copies: i18next merges every later bundle into these objects, which must stay as written
  resources: Object.fromEntries(
    LOCALES.map((locale) => [locale, { translation: structuredClone(STARTUP_TEXTS[locale]) }]),
  ),
  lng: initialLocale,
  fallbackLng: 'en',
  supportedLngs: [...LOCALES],
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Fetches one language's pack (a chunk of its own). */
export type LanguagePackLoader = () => Promise<{ pack: LanguagePack }>;

/**
 * The packs come from the app (app/i18n/languagePacks.ts), which assembles the feature catalogs:
 * shared/ knows no feature. Loading waits until they are provided, which the app does before it
 * renders.
 */
let providePacks: (loaders: Record<Locale, LanguagePackLoader>) => void = () => undefined;
const packs = new Promise<Record<Locale, LanguagePackLoader>>((resolve) => {
  providePacks = resolve;
});

/** Gives i18n the loaders of the language packs; called once, at start-up. */
export function provideLanguagePacks(loaders: Record<Locale, LanguagePackLoader>): void {
  providePacks(loaders);
}

/** antd's texts of each language whose pack has arrived. */
const antdLocales = new Map<Locale, AntdLocale>();
const loading = new Map<Locale, Promise<void>>();

/** Where the start-up language's pack is: the app shows a spinner, then the app or an error. */
export type StartupLanguageState =
  { status: 'loading' } | { status: 'ready' } | { status: 'failed'; error: unknown };

let startup: StartupLanguageState = { status: 'loading' };
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Subscribes to pack arrivals and the start-up state (for useSyncExternalStore). */
export function subscribeLanguages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The start-up language's state (a stable object between changes). */
export const startupLanguageState = (): StartupLanguageState => startup;

/** Whether the language's catalog is there (switching to it is then immediate). */
export const isLanguageLoaded = (locale: Locale): boolean => antdLocales.has(locale);

/**
 * Fetches a language's pack once (with the lazy-chunk time-out of product §A and §B) and adds its
 * catalog to i18next. Rejects with a ChunkLoadError; a later call tries again.
 */
export function loadLanguage(locale: Locale): Promise<void> {
  if (isLanguageLoaded(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = packs
      .then((loaders) => importWithTimeout(loaders[locale], `locale-${locale}`))
      .then(({ pack }) => {
        i18n.addResourceBundle(locale, 'translation', pack.translation, true, true);
        antdLocales.set(locale, pack.antd);
        if (i18n.language === locale) applyLocale(locale);
        notify();
      })
      .finally(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending;
}

/**
 * Fetches the packs of the languages not loaded yet, ignoring failures (a switch tries again
 * and reports them). Called when the browser is idle after start-up, so that a switch is
 * immediate without the other catalog weighing on the first screen.
 */
export function prefetchOtherLanguages(): void {
  for (const locale of LOCALES) {
    if (!isLanguageLoaded(locale)) loadLanguage(locale).catch(() => undefined);
  }
}

/** antd's texts for a language, or undefined (antd's built-in English) before its pack is there. */
export const antdLocaleFor = (language: string): AntdLocale | undefined =>
  isLocale(language) ? antdLocales.get(language) : undefined;

/** Settles when the start-up language's catalog has arrived (or failed to). */
export const i18nReady: Promise<void> = loadLanguage(initialLocale);
// A failure is shown by LanguageGate (the ChunkLoadError screen), not left unhandled.
i18nReady.then(
  () => {
    startup = { status: 'ready' };
    notify();
  },
  (error: unknown) => {
    startup = { status: 'failed', error };
    notify();
  },
);

/** The current interface language. */
export const currentLocale = (): Locale => (isLocale(i18n.language) ? i18n.language : 'en');

/**
 * Switches the interface language once its catalog is there; the choice is persisted under
 * `locale`. Immediate when the language was loaded before; rejects when its pack cannot be loaded.
 */
export function setLocale(locale: Locale): Promise<void> {
  if (isLanguageLoaded(locale)) {
    void i18n.changeLanguage(locale);
    return Promise.resolve();
  }
  return loadLanguage(locale).then(() => {
    void i18n.changeLanguage(locale);
  });
}
