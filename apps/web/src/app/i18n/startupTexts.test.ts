import { describe, expect, it } from 'vitest';
import { flattenCatalog } from '@/shared/i18n/catalog.ts';
import { en } from './locales/en.ts';
import { ru } from './locales/ru.ts';
import { STARTUP_TEXTS } from '@/shared/i18n/startupTexts.ts';

describe('start-up texts', () => {
  it('are exactly the catalogs’ texts for the same keys, in both languages', () => {
    for (const [language, catalog] of [
      ['en', en],
      ['ru', ru],
    ] as const) {
      const full = flattenCatalog(catalog);
      const startup = flattenCatalog(STARTUP_TEXTS[language]);
      expect(startup.size).toBeGreaterThan(0);
      for (const [key, text] of startup) expect(text, `${language}: ${key}`).toBe(full.get(key));
    }
  });
});
