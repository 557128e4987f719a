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

/**
 * A formatter of millisecond timestamps in one shape: the interface language unless `locale` is
 * given, the browser's time zone unless `timeZone` is; '—' for no moment.
 */
const formatterOf =
  (shape: Shape) =>
  (value: number | null | undefined, locale: string = currentLocale(), timeZone?: string): string =>
    value === null || value === undefined ? '—' : formatter(locale, shape, timeZone).format(value);

/** Date and time: ru "25.11.2026, 14:09", en "25 Nov 2026, 14:09". */
export const formatDateTime = formatterOf('dateTime');

/**
 * Date, time and the time zone ("25.11.2026, 14:09 GMT+3"), where the moment matters to the
 * reader and may be compared with other people's clocks: the incident card's times, comments and
 * the audit log.
 */
export const formatDateTimeWithZone = formatterOf('dateTimeZone');

/** The date alone: ru "25.11.2026", en "25 Nov 2026". */
export const formatDate = formatterOf('date');
