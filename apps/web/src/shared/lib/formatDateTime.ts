import { currentLocale } from '../i18n/i18n.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}:${withTime ? 'dt' : 'd'}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(
      locale,
      withTime ? { dateStyle: 'short', timeStyle: 'short' } : { dateStyle: 'short' },
    );
    formatters.set(key, cached);
  }
  return cached;
}

/** A millisecond timestamp as a short date and time in the interface language ('—' for none). */
export function formatDateTime(value: number | null | undefined, locale: string = currentLocale()): string {
  if (value === null || value === undefined) return '—';
  return formatter(locale, true).format(value);
}

/** A millisecond timestamp as a short date in the interface language ('—' for none). */
export function formatDate(value: number | null | undefined, locale: string = currentLocale()): string {
  if (value === null || value === undefined) return '—';
  return formatter(locale, false).format(value);
}
