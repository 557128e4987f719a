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

  describe('covers the previous calendar day, Monday–Sunday week, 14 days or month of the zone', () => {
    const VVO = 'Asia/Vladivostok'; // UTC+10, no DST
    // 00:30 on Sunday 1 March 2026 in Vladivostok is still 28 February in UTC
    const slot = zonedTimeToUtc({ year: 2026, month: 3, day: 1, hour: 0, minute: 30 }, VVO);
    const covered = (p: SchedulePeriod, at = slot, zone = VVO) => {
      const { start, finish } = scheduledPeriod(p, at, zone);
      return [start.toISOString(), finish.toISOString()];
    };

    it('uses the calendar of the time zone, not of UTC, at 00:30 local on the 1st', () => {
      expect(slot.toISOString()).toBe('2026-02-28T14:30:00.000Z');
      // 28 Feb 00:00 – 23:59:59.999 in Vladivostok
      expect(covered('everyDay')).toEqual(['2026-02-27T14:00:00.000Z', '2026-02-28T13:59:59.999Z']);
      // the whole of February, not January (the UTC month of the slot is still February)
      expect(covered('onceAMonth')).toEqual(['2026-01-31T14:00:00.000Z', '2026-02-28T13:59:59.999Z']);
      // 1 March is a Sunday: its week is not over, so Monday 16 – Sunday 22 February
      expect(covered('everyWeek')).toEqual(['2026-02-15T14:00:00.000Z', '2026-02-22T13:59:59.999Z']);
      // 15 – 28 February
      expect(covered('twiceAMonth')).toEqual(['2026-02-14T14:00:00.000Z', '2026-02-28T13:59:59.999Z']);
    });

    it("takes the previous Monday–Sunday week whatever the slot's weekday", () => {
      const at = (day: number) => zonedTimeToUtc({ year: 2026, month: 11, day, hour: 9 }, MSK);
      // Monday 23 November and Wednesday 25 November 2026: the week of 16–22 November
      for (const day of [23, 25]) {
        expect(covered('everyWeek', at(day), MSK)).toEqual([
          '2026-11-15T21:00:00.000Z',
          '2026-11-22T20:59:59.999Z',
        ]);
      }
    });

    it('covers December from January, and a month of 31 days, across a DST change', () => {
      const newYear = zonedTimeToUtc({ year: 2027, month: 1, day: 1, hour: 0, minute: 30 }, MSK);
      expect(covered('onceAMonth', newYear, MSK)).toEqual([
        '2026-11-30T21:00:00.000Z',
        '2026-12-31T20:59:59.999Z',
      ]);
      // October 2026 in Berlin: summer time until the 25th
      const berlin = 'Europe/Berlin';
      const november = zonedTimeToUtc({ year: 2026, month: 11, day: 1, hour: 8 }, berlin);
      expect(covered('onceAMonth', november, berlin)).toEqual([
        '2026-09-30T22:00:00.000Z',
        '2026-10-31T22:59:59.999Z',
      ]);
    });
  });
});
