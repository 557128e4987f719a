import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeWithZone } from './formatDateTime.ts';

const NOV_25_11_09_UTC = Date.UTC(2026, 10, 25, 11, 9);
const SEP_5_08_30_UTC = Date.UTC(2026, 8, 5, 8, 30);
const FORMATS = { formatDateTime, formatDateTimeWithZone, formatDate };

describe('date formatting', () => {
  it.each([
    // one format per language: a four-digit year, the day first, a 24-hour clock
    ['formatDateTime', NOV_25_11_09_UTC, 'en', 'Europe/Moscow', '25 Nov 2026, 14:09'],
    ['formatDateTime', NOV_25_11_09_UTC, 'ru', 'Europe/Moscow', '25.11.2026, 14:09'],
    ['formatDateTime', SEP_5_08_30_UTC, 'ru', 'UTC', '05.09.2026, 08:30'],
    // the time zone after the time where times matter
    ['formatDateTimeWithZone', NOV_25_11_09_UTC, 'en', 'Europe/Moscow', '25 Nov 2026, 14:09 GMT+3'],
    ['formatDateTimeWithZone', NOV_25_11_09_UTC, 'ru', 'Europe/Moscow', '25.11.2026, 14:09 GMT+3'],
    ['formatDateTimeWithZone', NOV_25_11_09_UTC, 'en', 'UTC', '25 Nov 2026, 11:09 UTC'],
    // the date alone in the same format
    ['formatDate', NOV_25_11_09_UTC, 'en', 'UTC', '25 Nov 2026'],
    ['formatDate', NOV_25_11_09_UTC, 'ru', 'UTC', '25.11.2026'],
  ] as const)('%s of %i in %s (%s) reads "%s"', (name, value, locale, zone, expected) => {
    expect(FORMATS[name](value, locale, zone)).toBe(expected);
  });

  it('shows a dash for a missing moment', () => {
    expect(formatDateTime(null, 'en')).toBe('—');
    expect(formatDateTimeWithZone(undefined, 'ru')).toBe('—');
    expect(formatDate(undefined, 'ru')).toBe('—');
  });
});
