import type { Locale } from './catalog.ts';
import { i18n } from './i18n.ts';

/**
 * Adds the texts of a lazily loaded feature under `key`, in every language, from the feature's
 * own chunk: the start-up language pack (scripts/bundle-size.mjs counts it with the initial JS)
 * then does not carry them. Call it at the top level of the feature's module, so that the texts
 * are there before its first render; a language pack that arrives later keeps them.
 */
export function addFeatureTexts<Texts extends object>(key: string, texts: Record<Locale, Texts>): void {
  for (const [locale, translation] of Object.entries(texts)) {
    i18n.addResourceBundle(locale, 'translation', { [key]: translation }, true, true);
  }
}
