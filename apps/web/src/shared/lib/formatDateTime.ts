import { currentLocale } from '../i18n/i18n.ts';

type Shape = 'date' | 'dateTime' | 'dateTimeZone';

/**
 * The one date format of the interface: ru "25.11.2026, 14:09", en "25 Nov 2026, 14:09" (a
 * four-digit year and the day before the month, so no reader mistakes 05/09 for May or September).
 */
const DATE: Record<'ru' | 'en', Intl.DateTimeFormatOptions> = {
  ru: { day: '2-digit', month: '2-digit', year: 'numeric' },
  en: { day: 'numeric', month: 'short', year: 'numeric' },
};
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, shape: Shape, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale}:${shape}:${timeZone ?? ''}`;
  let cached = formatters.get(key);
  if (!cached) {
    const ru = locale.toLowerCase().startsWith('ru');
    cached = new Intl.DateTimeFormat(ru ? 'ru-RU' : 'en-GB', {
      ...DATE[ru ? 'ru' : 'en'],
      ...(shape === 'date' ? {} : TIME),
      ...(shape === 'dateTimeZone' ? { timeZoneName: 'short' } : {}),
      timeZone,
    });
    formatters.set(key, cached);
  }
  return cached;
}

function format(value: number | null | undefined, locale: string, shape: Shape, timeZone?: string): string {
  if (value === null || value === undefined) return '—';
  return formatter(locale, shape, timeZone).format(value);
}

/** A millisecond timestamp as date and time in the interface language ('—' for none). */
export function formatDateTime(
  value: number | null | undefined,
  locale: string = currentLocale(),
  timeZone?: string,
): string {
  return format(value, locale, 'dateTime', timeZone);
}

/**
 * Date, time and the time zone ("25.11.2026, 14:09 GMT+3"), where the moment matters to the
 * reader and may be compared with other people's clocks: the incident card's times, comments and
 * the audit log.
 */
export function formatDateTimeWithZone(
  value: number | null | undefined,
  locale: string = currentLocale(),
  timeZone?: string,
): string {
  return format(value, locale, 'dateTimeZone', timeZone);
}

/** A millisecond timestamp as a date in the interface language ('—' for none). */
export function formatDate(value: number | null | undefined, locale: string = currentLocale(), timeZone?: string): string {
  return format(value, locale, 'date', timeZone);
}
