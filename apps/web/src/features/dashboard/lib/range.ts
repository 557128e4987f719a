import dayjs, { type Dayjs } from 'dayjs';

/** A dashboard period: milliseconds, from the start of the first day to the end of the last. */
export interface DateRange {
  from: number;
  to: number;
}

/** Whole days from `first` to `last` (local time). */
export const dayRange = (first: Dayjs, last: Dayjs): DateRange => ({
  from: first.startOf('day').valueOf(),
  to: last.endOf('day').valueOf(),
});

/** The default period (product §A9): today minus 6 days to today. */
export const defaultRange = (now: Dayjs = dayjs()): DateRange => dayRange(now.subtract(6, 'day'), now);

/**
 * At a new day the end of a period that ended "today" moves to the new today (product §A4),
 * keeping its length; other periods stay as they are.
 */
export function rollRange(range: DateRange, previousToday: Dayjs, today: Dayjs): DateRange {
  if (today.isSame(previousToday, 'day')) return range;
  if (range.to !== previousToday.endOf('day').valueOf()) return range;
  const days = dayjs(range.to).startOf('day').diff(dayjs(range.from).startOf('day'), 'day');
  return dayRange(today.subtract(days, 'day'), today);
}

/** The previous period of the same length, as the server counts it. */
export const previousRange = (range: DateRange): DateRange => ({
  from: range.from - (range.to - range.from + 1),
  to: range.from - 1,
});

/** Percent change from `before` to `now`, or null without a base. */
export function percentChange(now: number, before: number): number | null {
  if (!before) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}
