import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectInitialLocale } from './i18n.ts';

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
    return (await import('./i18n.ts')).i18n;
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
    await i18n.changeLanguage('ru');
    expect(window.localStorage.getItem('locale')).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
  });
});
