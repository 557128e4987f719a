import { currentLocale } from '../i18n/i18n.ts';

const formats = new Map<string, Intl.NumberFormat>();

/** One cached Intl.NumberFormat per locale and options (building one is slow in a long table). */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}:${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/**
 * A measured value (EPS, a size) grouped and with at most `maximumFractionDigits` decimals in the
 * interface language: en "1,563.6", ru "1 563,6" (a no-break space groups the thousands).
 */
export function formatNumber(
  value: number,
  locale: string = currentLocale(),
  maximumFractionDigits = 2,
): string {
  return numberFormat(locale, { maximumFractionDigits }).format(value);
}

/** A whole count (incidents, events, rules): en "7,500", ru "7 500". */
export function formatCount(count: number, locale: string = currentLocale()): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(count);
}

/**
 * A percentage given in percent (12.5 means 12.5 %): en "1.12%", ru "1,12 %" (a no-break space
 * before the sign). `signed` shows "+" before a rise, as a change against a previous period.
 */
export function formatPercent(
  percent: number,
  locale: string = currentLocale(),
  { signed = false, maximumFractionDigits = 2 }: { signed?: boolean; maximumFractionDigits?: number } = {},
): string {
  return numberFormat(locale, {
    style: 'percent',
    maximumFractionDigits,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(percent / 100);
}
