import { Cron } from 'croner';
import type { Crontab, SchedulePeriod } from '@soc/contracts';
import { REPORT_PERIOD_DAYS, parseStartTime } from '@soc/contracts';

/** The offset of `zone` from UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant of a wall time in `zone`. A wall time skipped by a DST change maps to the instant
 * one offset later (as clocks read after the jump); a repeated one to its first occurrence.
 */
export function zonedTimeToUtc(
  wall: {
    year: number;
    month: number;
    day: number;
    hour?: number;
    minute?: number;
    second?: number;
    ms?: number;
  },
  zone: string,
): Date {
  const asUtc = Date.UTC(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour ?? 0,
    wall.minute ?? 0,
    wall.second ?? 0,
    wall.ms ?? 0,
  );
  // the offsets a day either side cover both sides of any DST change near this wall time
  const candidates = [
    ...new Set([-86_400_000, 86_400_000].map((d) => asUtc - zoneOffsetMs(new Date(asUtc + d), zone))),
  ];
  const valid = candidates.filter((c) => c + zoneOffsetMs(new Date(c), zone) === asUtc);
  // repeated wall time: its first occurrence; skipped one: as read after the jump
  return new Date(valid.length ? Math.min(...valid) : Math.max(...candidates));
}

/** The calendar date of `instant` in `zone`. */
export function zonedDate(instant: Date, zone: string): { year: number; month: number; day: number } {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(instant)
    .split('-')
    .map(Number) as [number, number, number];
  return { year, month, day };
}

/** The instant a schedule's `YYYY-MM-DDTHH:mm` start time stands for in `zone`. */
export function startInstant(startTime: string, zone: string): Date {
  const parts = parseStartTime(startTime);
  if (!parts) throw new Error(`Invalid start time ${startTime}`);
  return zonedTimeToUtc(parts, zone);
}

/** croner's pattern of a crontab: seconds, minute, hour, day of month, month, day of week. */
export const cronPattern = (c: Crontab): string =>
  `0 ${c.minute} ${c.hour} ${c.day_of_month} ${c.month_of_year} ${c.day_of_week}`;

const cronOf = (crontab: Crontab, zone: string) =>
  new Cron(cronPattern(crontab), { timezone: zone, paused: true });

/** Checks that croner accepts the crontab (also validates a client-sent one). */
export function isValidCrontab(crontab: Crontab, zone: string): boolean {
  try {
    cronOf(crontab, zone);
    return true;
  } catch {
    return false;
  }
}

/** The first slot of a schedule strictly after `after`, never before its start time. */
export function nextSlot(crontab: Crontab, zone: string, startTime: string, after: Date): Date | null {
  const start = startInstant(startTime, zone);
  const from = after.getTime() >= start.getTime() ? after : new Date(start.getTime() - 1000);
  return cronOf(crontab, zone).nextRun(from);
}

/**
 * The latest slot not after `now`, starting the walk at the due slot `due` (≤ now). A restart
 * that missed several slots thus runs one report, for the latest period (catch up once).
 */
export function latestDueSlot(crontab: Crontab, zone: string, due: Date, now: Date): Date {
  const cron = cronOf(crontab, zone);
  let slot = due;
  // bounded: a minute-level crontab missed for years is still a finite walk
  for (let i = 0; i < 100_000; i++) {
    const next = cron.nextRun(slot);
    if (!next || next.getTime() > now.getTime()) return slot;
    slot = next;
  }
  return slot;
}

/**
 * The period a scheduled report covers, in calendar days of `zone` (the schedule's, i.e. the
 * tenant's, time zone) before the slot's day, as the form's info line says: the previous day,
 * the previous Monday–Sunday week, the previous 14 days, or the previous calendar month.
 */
export function scheduledPeriod(
  period: SchedulePeriod,
  slot: Date,
  zone: string,
): { start: Date; finish: Date } {
  const today = zonedDate(slot, zone);
  const day = (offset: number) => ({ ...today, day: today.day + offset });
  let first: { year: number; month: number; day: number };
  let last: { year: number; month: number; day: number };
  switch (period) {
    case 'everyDay':
      [first, last] = [day(-1), day(-1)];
      break;
    case 'everyWeek': {
      // days since this week's Monday (getUTCDay: Sunday 0)
      const sinceMonday = (new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7;
      [first, last] = [day(-sinceMonday - 7), day(-sinceMonday - 1)];
      break;
    }
    case 'twiceAMonth':
      [first, last] = [day(-REPORT_PERIOD_DAYS.twiceAMonth), day(-1)];
      break;
    case 'onceAMonth':
      // day 0 of the slot's month is the last day of the month before
      [first, last] = [
        { year: today.year, month: today.month - 1, day: 1 },
        { year: today.year, month: today.month, day: 0 },
      ];
      break;
  }
  return dayRange(first, last, zone);
}

/** [start of `start` day, end of `finish` day] of a one-off report in `zone`. */
export function dayRange(
  start: { year: number; month: number; day: number },
  finish: { year: number; month: number; day: number },
  zone: string,
): { start: Date; finish: Date } {
  const from = zonedTimeToUtc(start, zone);
  const to = zonedTimeToUtc({ ...finish, day: finish.day + 1 }, zone);
  return { start: from, finish: new Date(to.getTime() - 1) };
}
