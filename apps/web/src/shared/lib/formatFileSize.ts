import { currentLocale } from '../i18n/i18n.ts';

const KIB = 1024;
const MIB = 1024 * 1024;

/** A byte count as B, KB or MB (binary multiples, spec 000 §9), with units in the interface language. */
export function formatFileSize(bytes: number, locale: string = currentLocale()): string {
  const [value, unit] =
    bytes >= MIB ? [bytes / MIB, 'megabyte'] : bytes >= KIB ? [bytes / KIB, 'kilobyte'] : [bytes, 'byte'];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: unit === 'byte' ? 0 : 1,
  }).format(value);
}
