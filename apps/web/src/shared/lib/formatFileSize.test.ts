import { beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage } from '../i18n/i18n.ts';
import { formatFileSize } from './formatFileSize.ts';

const NBSP = '\u00a0';

describe('formatFileSize', () => {
  beforeAll(async () => {
    await Promise.all([loadLanguage('en'), loadLanguage('ru')]);
  });

  it('writes bytes out with their English plural form', () => {
    expect(formatFileSize(1, 'en')).toBe('1 byte');
    expect(formatFileSize(18, 'en')).toBe('18 bytes');
    expect(formatFileSize(1023, 'en')).toBe('1,023 bytes');
  });

  it('writes bytes out with their Russian plural forms', () => {
    expect(formatFileSize(1, 'ru')).toBe('1 байт');
    expect(formatFileSize(2, 'ru')).toBe('2 байта');
    expect(formatFileSize(5, 'ru')).toBe('5 байт');
    expect(formatFileSize(21, 'ru')).toBe('21 байт');
    expect(formatFileSize(1023, 'ru')).toBe(`1${NBSP}023 байта`);
  });

  it('writes kilobytes and megabytes with one decimal in binary multiples', () => {
    expect(formatFileSize(1536, 'en')).toBe('1.5 kB');
    expect(formatFileSize(1536, 'ru')).toBe('1,5 кБ');
    expect(formatFileSize(12.5 * 1024 * 1024, 'en')).toBe('12.5 MB');
  });
});
