import { describe, expect, it } from 'vitest';
import type { SchedulePeriod } from '@soc/contracts';
import { SCHEDULE_PERIODS, crontabFromPeriod, periodFromCrontab } from '@soc/contracts';
import { latestDueSlot, nextSlot, scheduledPeriod, startInstant, zonedTimeToUtc } from './report-time.ts';

const MSK = 'Europe/Moscow';

describe('crontab ⇄ period', () => {
  const starts = [
    '2026-01-01T00:00',
    '2026-01-14T09:30',
    '2026-01-15T23:59',
    '2026-01-28T12:00',
    '2026-01-29T08:00',
    '2026-01-30T08:00',
    '2026-01-31T07:05',
    '2026-02-28T10:00',
    '2028-02-29T10:00',
    '2026-03-29T02:30',
    '2026-10-25T02:30',
  ];
  for (const period of SCHEDULE_PERIODS) {
    it(`round-trips ${period} for every edge start date`, () => {
      for (const start of starts) {
        const crontab = crontabFromPeriod(period, start);
        expect(periodFromCrontab(crontab), `${period} ${start}`).toBe(period);
        expect(crontab.month_of_year).toBe('*');
        expect(crontab.minute).toBe(String(Number(start.slice(14, 16))));
        expect(crontab.hour).toBe(String(Number(start.slice(11, 13))));
      }
    });
  }

  it('derives the crontab fields of each period', () => {
    // 2026-01-31 is a Saturday
    expect(crontabFromPeriod('everyDay', '2026-01-31T07:05')).toEqual({
      minute: '5',
      hour: '7',
      day_of_week: '*',
      day_of_month: '*',
      month_of_year: '*',
    });
    expect(crontabFromPeriod('everyWeek', '2026-01-31T07:05').day_of_week).toBe('6');
    expect(crontabFromPeriod('twiceAMonth', '2026-01-10T07:05').day_of_month).toBe('10,24');
    // the second day wraps inside the 28 days every month has
    expect(crontabFromPeriod('twiceAMonth', '2026-01-20T07:05').day_of_month).toBe('6,20');
    expect(crontabFromPeriod('twiceAMonth', '2026-01-31T07:05').day_of_month).toBe('17,L');
    expect(crontabFromPeriod('onceAMonth', '2026-01-31T07:05').day_of_month).toBe('L');
    expect(crontabFromPeriod('onceAMonth', '2026-02-28T07:05').day_of_month).toBe('28');
  });

  it('does not take other crontabs for a period', () => {
    const base = { minute: '0', hour: '9', month_of_year: '*' };
    expect(periodFromCrontab({ ...base, day_of_week: '1-5', day_of_month: '*' })).toBeNull();
    expect(periodFromCrontab({ ...base, day_of_week: '*', day_of_month: '1,10' })).toBeNull();
    expect(
      periodFromCrontab({ ...base, day_of_week: '*', day_of_month: '*', month_of_year: '1' }),
    ).toBeNull();
    expect(periodFromCrontab({ ...base, minute: '*/5', day_of_week: '*', day_of_month: '*' })).toBeNull();
  });
});

describe('schedule slots', () => {
  const slots = (period: SchedulePeriod, start: string, zone: string, count: number) => {
    const crontab = crontabFromPeriod(period, start);
    const out: Date[] = [];
    let after = new Date(startInstant(start, zone).getTime() - 60_000);
    for (let i = 0; i < count; i++) {
      const next = nextSlot(crontab, zone, start, after)!;
      out.push(next);
      after = next;
    }
    return out;
  };

  it('fires daily at the start time in Moscow (UTC+3)', () => {
    expect(slots('everyDay', '2026-11-22T09:00', MSK, 2).map((d) => d.toISOString())).toEqual([
      '2026-11-22T06:00:00.000Z',
      '2026-11-23T06:00:00.000Z',
    ]);
  });

  it('fires monthly from the 31st on the last day of every month, February included', () => {
    expect(slots('onceAMonth', '2026-01-31T10:00', MSK, 4).map((d) => d.toISOString().slice(0, 10))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
  });

  it('fires twice a month 14 days apart, in February too', () => {
    expect(slots('twiceAMonth', '2026-02-10T10:00', MSK, 4).map((d) => d.toISOString().slice(0, 10))).toEqual(
      ['2026-02-10', '2026-02-24', '2026-03-10', '2026-03-24'],
    );
  });

  it('keeps the wall time across a DST change and fires once on the repeated hour', () => {
    const berlin = 'Europe/Berlin';
    // spring forward: 2026-03-29 02:00 → 03:00; autumn back: 2026-10-25 03:00 → 02:00
    const spring = slots('everyDay', '2026-03-28T09:00', berlin, 3).map((d) => d.toISOString());
    expect(spring).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    const autumn = slots('everyDay', '2026-10-24T02:30', berlin, 3).map((d) => d.toISOString());
    expect(autumn).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    // a skipped wall time maps to the instant after the jump
    expect(zonedTimeToUtc({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, berlin).toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
  });

  it('collapses missed slots into the latest one', () => {
    const crontab = crontabFromPeriod('everyDay', '2026-11-01T09:00');
    const due = new Date('2026-11-10T06:00:00Z');
    const now = new Date('2026-11-20T12:00:00Z');
    expect(latestDueSlot(crontab, MSK, due, now).toISOString()).toBe('2026-11-20T06:00:00.000Z');
  });

  it('covers the days before the slot: 1, 7, 14, or the days of the previous month', () => {
    const slot = new Date('2026-03-01T06:00:00Z'); // 09:00 in Moscow
    const days = (p: SchedulePeriod) => {
      const { start, finish } = scheduledPeriod(p, slot, MSK);
      expect(finish.getTime()).toBe(slot.getTime() - 1);
      return (slot.getTime() - start.getTime()) / 86_400_000;
    };
    expect(days('everyDay')).toBe(1);
    expect(days('everyWeek')).toBe(7);
    expect(days('twiceAMonth')).toBe(14);
    expect(days('onceAMonth')).toBe(28);
  });
});
