import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeWithZone } from './formatDateTime.ts';

const NOV_25_11_09_UTC = Date.UTC(2026, 10, 25, 11, 9);
const SEP_5_08_30_UTC = Date.UTC(2026, 8, 5, 8, 30);

describe('formatDateTime', () => {
  it('writes one format per language with a four-digit year and a 24-hour clock', () => {
    expect(formatDateTime(NOV_25_11_09_UTC, 'en', 'Europe/Moscow')).toBe('25 Nov 2026, 14:09');
    expect(formatDateTime(NOV_25_11_09_UTC, 'ru', 'Europe/Moscow')).toBe('25.11.2026, 14:09');
    expect(formatDateTime(SEP_5_08_30_UTC, 'ru', 'UTC')).toBe('05.09.2026, 08:30');
  });

  it('shows a dash for a missing moment', () => {
    expect(formatDateTime(null, 'en')).toBe('—');
    expect(formatDate(undefined, 'ru')).toBe('—');
  });
});

describe('formatDateTimeWithZone', () => {
  it('adds the time zone after the time', () => {
    expect(formatDateTimeWithZone(NOV_25_11_09_UTC, 'en', 'Europe/Moscow')).toBe('25 Nov 2026, 14:09 GMT+3');
    expect(formatDateTimeWithZone(NOV_25_11_09_UTC, 'ru', 'Europe/Moscow')).toBe('25.11.2026, 14:09 GMT+3');
    expect(formatDateTimeWithZone(NOV_25_11_09_UTC, 'en', 'UTC')).toBe('25 Nov 2026, 11:09 UTC');
  });
});

describe('formatDate', () => {
  it('writes the date alone in the same format', () => {
    expect(formatDate(NOV_25_11_09_UTC, 'en', 'UTC')).toBe('25 Nov 2026');
    expect(formatDate(NOV_25_11_09_UTC, 'ru', 'UTC')).toBe('25.11.2026');
  });
});
