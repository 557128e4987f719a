import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { datePresetRanges } from './datePresets.ts';

const day = (value: dayjs.Dayjs) => value.format('YYYY-MM-DD');

describe('datePresetRanges', () => {
  it('gives the presets of the specification as whole days', () => {
    const ranges = datePresetRanges(dayjs('2026-03-10T17:45'));
    expect(ranges.last7Days.map(day)).toEqual(['2026-03-04', '2026-03-10']);
    expect(ranges.last30Days.map(day)).toEqual(['2026-02-09', '2026-03-10']);
    expect(ranges.thisMonth.map(day)).toEqual(['2026-03-01', '2026-03-10']);
    expect(ranges.lastMonth.map(day)).toEqual(['2026-02-01', '2026-02-28']);
  });

  it('handles the turn of the year', () => {
    expect(datePresetRanges(dayjs('2026-01-03')).lastMonth.map(day)).toEqual(['2025-12-01', '2025-12-31']);
  });
});
