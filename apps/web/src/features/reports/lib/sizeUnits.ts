import { currentLocale } from '@/shared/i18n/i18n.ts';

/** The units the size column shows above a kilobyte (binary multiples, as formatFileSize). */
export const SIZE_UNITS = ['kilobyte', 'megabyte'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];
export const SIZE_UNIT_BYTES: Record<SizeUnit, number> = { kilobyte: 1024, megabyte: 1024 * 1024 };

/** The unit's short name exactly as the column prints it ("kB", "МБ"), taken from Intl. */
export function sizeUnitLabel(unit: SizeUnit, locale: string = currentLocale()): string {
  const parts = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).formatToParts(1);
  return parts.find((p) => p.type === 'unit')?.value ?? unit;
}

/** The unit to show stored byte bounds in: megabytes when every bound is a whole number of them. */
export function unitOfBounds(bounds: (number | null)[]): SizeUnit {
  const set = bounds.filter((b): b is number => b !== null && b > 0);
  return set.length > 0 && set.every((b) => b % SIZE_UNIT_BYTES.megabyte === 0) ? 'megabyte' : 'kilobyte';
}
