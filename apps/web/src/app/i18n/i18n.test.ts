import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectInitialLocale } from '@/shared/i18n/i18n.ts';

describe('detectInitialLocale', () => {
  it('uses Russian for browsers whose language starts with ru, English otherwise', () => {
    expect(detectInitialLocale(null, 'ru-RU')).toBe('ru');
    expect(detectInitialLocale(null, 'ru')).toBe('ru');
    expect(detectInitialLocale(null, 'en-US')).toBe('en');
    expect(detectInitialLocale(null, 'de-DE')).toBe('en');
    expect(detectInitialLocale(null, undefined)).toBe('en');
  });

  it('prefers the persisted choice', () => {
    expect(detectInitialLocale('en', 'ru-RU')).toBe('en');
    expect(detectInitialLocale('ru', 'en-US')).toBe('ru');
    expect(detectInitialLocale('fr', 'ru-RU')).toBe('ru');
  });
});

describe('i18n start-up', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  /** Loads the i18n module anew, as on a page load with this browser language and stored locale. */
  const freshI18n = async (navigatorLanguage: string, storedLocale: string | null = null) => {
    if (storedLocale === null) window.localStorage.removeItem('locale');
    else window.localStorage.setItem('locale', storedLocale);
    vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(navigatorLanguage);
    vi.resetModules();
    const module = await import('@/shared/i18n/i18n.ts');
    await import('./languagePacks.ts'); // as main.tsx does
    await module.i18nReady;
    return module.i18n;
  };

  it('starts in Russian for a Russian browser and mirrors it to <html lang>, storage and dayjs', async () => {
    const i18n = await freshI18n('ru-RU');
    const dayjs = (await import('dayjs')).default;
    expect(i18n.language).toBe('ru');
    expect(i18n.t('menu.dashboard')).toBe('Дашборд');
    expect(document.documentElement.lang).toBe('ru');
    expect(window.localStorage.getItem('locale')).toBe('ru');
    expect(dayjs.locale()).toBe('ru');
  });

  it('starts in English for other browsers', async () => {
    const i18n = await freshI18n('de-DE');
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('keeps a persisted locale and persists a switch', async () => {
    const i18n = await freshI18n('ru-RU', 'en');
    expect(i18n.language).toBe('en');
    const { setLocale } = await import('@/shared/i18n/i18n.ts');
    await setLocale('ru');
    expect(window.localStorage.getItem('locale')).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
  });

  it("holds only the start-up language's catalog until a switch loads the other", async () => {
    const i18n = await freshI18n('en-US');
    const { isLanguageLoaded, setLocale, antdLocaleFor } = await import('@/shared/i18n/i18n.ts');
    expect(i18n.t('menu.dashboard')).toBe('Dashboard');
    expect(isLanguageLoaded('en')).toBe(true);
    expect(isLanguageLoaded('ru')).toBe(false);
    expect(i18n.hasResourceBundle('ru', 'translation')).toBe(true); // only the start-up texts
    expect(i18n.getResource('ru', 'translation', 'menu.dashboard')).toBeUndefined();
    expect(antdLocaleFor('ru')).toBeUndefined();

    const switching = setLocale('ru');
    // the language changes only once its catalog is there: no untranslated keys in between
    expect(i18n.language).toBe('en');
    await switching;
    expect(i18n.language).toBe('ru');
    expect(i18n.t('menu.dashboard')).toBe('Дашборд');
    expect(antdLocaleFor('ru')?.locale).toBe('ru');
    expect((await import('dayjs')).default.locale()).toBe('ru');
  });

  it('offers the loading and reload texts in both languages before any catalog arrives', async () => {
    const i18n = await freshI18n('ru-RU');
    expect(i18n.getResource('en', 'translation', 'errors.chunk.missingTitle')).toBe(
      'Part of the application is missing',
    );
    expect(i18n.getResource('ru', 'translation', 'common.reload')).toBe('Перезагрузить');
  });
});
