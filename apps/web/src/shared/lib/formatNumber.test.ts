import { describe, expect, it } from 'vitest';
import { formatCount, formatNumber, formatPercent } from './formatNumber.ts';

// ru groups thousands with a no-break space (U+00A0) and puts one before the percent sign
const NBSP = '\u00a0';

describe('formatNumber', () => {
  it('groups thousands and uses the decimal mark of the language', () => {
    expect(formatNumber(1563.6, 'en')).toBe('1,563.6');
    expect(formatNumber(1563.6, 'ru')).toBe(`1${NBSP}563,6`);
  });

  it('rounds to two decimals unless told otherwise', () => {
    expect(formatNumber(0.123456, 'en')).toBe('0.12');
    expect(formatNumber(2.25, 'ru', 0)).toBe('2');
  });
});

describe('formatCount', () => {
  it('writes a whole count with the group separator of the language', () => {
    expect(formatCount(7500, 'en')).toBe('7,500');
    expect(formatCount(7500, 'ru')).toBe(`7${NBSP}500`);
    expect(formatCount(12, 'ru')).toBe('12');
  });
});

describe('formatPercent', () => {
  it('takes a value in percent and writes the sign as the language does', () => {
    expect(formatPercent(1.12, 'en')).toBe('1.12%');
    expect(formatPercent(1.12, 'ru')).toBe(`1,12${NBSP}%`);
    expect(formatPercent(100, 'ru')).toBe(`100${NBSP}%`);
  });

  it('shows a plus before a rise only when asked, and no sign for no change', () => {
    expect(formatPercent(12.5, 'en', { signed: true })).toBe('+12.5%');
    expect(formatPercent(-3, 'ru', { signed: true })).toBe(`-3${NBSP}%`);
    expect(formatPercent(0, 'en', { signed: true })).toBe('0%');
    expect(formatPercent(12.5, 'en')).toBe('12.5%');
  });
});
