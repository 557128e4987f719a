import type { Locale as AntdLocale } from 'antd/es/locale';

/**
 * Russian has four plural forms where English has two: for every plural key of English
 * (`bytes_one`, `bytes_other`, chosen by i18next from `count`) Russian also needs `_few` and `_many`.
 */
type RussianPluralForms<Shape> = {
  [
    Key in keyof Shape & string as Key extends `${infer Base}_other` ? `${Base}_few` | `${Base}_many` : never
  ]: string;
};

/** A Russian catalog of an English one: the same keys plus the Russian plural forms. */
export type RussianTexts<Shape> = {
  [Key in keyof Shape]: Shape[Key] extends string ? string : RussianTexts<Shape[Key]>;
} & RussianPluralForms<Shape>;

/** Supported interface languages (product §A1). */
export const LOCALES = ['ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => value === 'ru' || value === 'en';

/**
 * What one interface language needs: its catalog and antd's texts (date pickers, pagination,
 * empty states). Each language is a chunk of its own (`packs/<locale>.ts`), loaded on demand.
 */
export interface LanguagePack {
  /** The language's whole catalog (the app checks its shape: app/i18n/catalog.ts). */
  translation: object;
  antd: AntdLocale;
}

/**
 * Flattens a nested catalog to dotted keys (`auth.login.title`), so that catalogs can be
 * compared key by key.
 */
export function flattenCatalog(catalog: object, prefix = ''): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') {
      for (const [nestedKey, nestedValue] of flattenCatalog(value as object, path)) {
        flat.set(nestedKey, nestedValue);
      }
    } else {
      flat.set(path, value);
    }
  }
  return flat;
}
