import type { Language } from '@soc/contracts';

/**
 * The formats of every date picker: the first is shown and written as the interface writes a
 * date elsewhere (ru "25.11.2026", en "25 Nov 2026", see formatDateTime.ts); the others are also
 * read when a date is typed, so "2026-11-25" and "25.11.2026" are accepted in either language.
 */
const DATE: Record<Language, string[]> = {
  ru: ['DD.MM.YYYY', 'D.M.YYYY', 'YYYY-MM-DD'],
  en: ['D MMM YYYY', 'DD.MM.YYYY', 'D.M.YYYY', 'YYYY-MM-DD'],
};
const DATE_TIME: Record<Language, string[]> = {
  ru: ['DD.MM.YYYY HH:mm', 'D.M.YYYY H:mm', 'YYYY-MM-DD HH:mm'],
  en: ['D MMM YYYY, HH:mm', 'D MMM YYYY HH:mm', 'DD.MM.YYYY HH:mm', 'D.M.YYYY H:mm', 'YYYY-MM-DD HH:mm'],
};

export interface PickerFormats {
  date: string[];
  dateTime: string[];
}

/** The picker formats of `language` (pass `useLanguage()`). */
export const pickerFormats = (language: Language): PickerFormats => ({
  date: DATE[language],
  dateTime: DATE_TIME[language],
});
