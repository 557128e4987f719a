import type { Dayjs } from 'dayjs';

/** The date-range presets of product §A9, in the order the picker lists them. */
export const DATE_PRESET_KEYS = ['last7Days', 'last30Days', 'thisMonth', 'lastMonth'] as const;
export type DatePresetKey = (typeof DATE_PRESET_KEYS)[number];

/**
 * The ranges of the presets as seen at `now` (whole days; the filter stretches them to the
 * start of the first day and the end of the last):
 * last 7 days is today minus 6 days to today, last 30 days likewise, this month runs from its
 * first day to today, last month is the whole previous calendar month.
 */
export function datePresetRanges(now: Dayjs): Record<DatePresetKey, [Dayjs, Dayjs]> {
  const today = now.startOf('day');
  const previousMonth = today.subtract(1, 'month');
  return {
    last7Days: [today.subtract(6, 'day'), today],
    last30Days: [today.subtract(29, 'day'), today],
    thisMonth: [today.startOf('month'), today],
    lastMonth: [previousMonth.startOf('month'), previousMonth.endOf('month').startOf('day')],
  };
}
