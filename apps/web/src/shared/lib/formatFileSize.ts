import { currentLocale, i18n } from '../i18n/i18n.ts';

const KIB = 1024;
const MIB = 1024 * 1024;

/**
 * A byte count as bytes, KB or MB (binary multiples, product §A9) in the interface language.
 * Bytes are written out with their plural form ("18 bytes", "2 байта"), which Intl's short unit
 * ("18 byte", "18 Б") lacks; kilobytes and megabytes take Intl's short units ("1.5 kB", "1,5 кБ").
 */
export function formatFileSize(bytes: number, locale: string = currentLocale()): string {
  if (bytes < KIB) return i18n.t('common.bytes', { count: bytes, lng: locale });
  const [value, unit] = bytes >= MIB ? [bytes / MIB, 'megabyte'] : [bytes / KIB, 'kilobyte'];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}
