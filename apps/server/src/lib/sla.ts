/** Business hours of the provider's SOC for SLA rows with `calendar = false`. */
export interface BusinessCalendar {
  /** Minutes east of UTC of the SOC's clock (Moscow: 180). */
  utcOffsetMinutes: number;
  /** First and last working hour, [start, end). */
  startHour: number;
  endHour: number;
}

export const DEFAULT_BUSINESS_CALENDAR: BusinessCalendar = {
  utcOffsetMinutes: 180,
  startHour: 9,
  endHour: 18,
};

const HOUR = 3_600_000;

/**
 * The deadline `hours` after `start`: on the calendar clock when `calendar` is true, else
 * counting only working hours, Monday to Friday.
 */
export function slaDeadline(
  start: Date,
  hours: number,
  calendar: boolean,
  cal: BusinessCalendar = DEFAULT_BUSINESS_CALENDAR,
): Date {
  if (calendar) return new Date(start.getTime() + hours * HOUR);
  const offset = cal.utcOffsetMinutes * 60_000;
  // Work in the SOC's local clock expressed as a UTC date, convert back at the end.
  let t = start.getTime() + offset;
  let remaining = hours * HOUR;
  for (let guard = 0; remaining > 0 && guard < 10_000; guard++) {
    const d = new Date(t);
    const day = d.getUTCDay();
    const dayStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    const open = dayStart + cal.startHour * HOUR;
    const close = dayStart + cal.endHour * HOUR;
    if (day === 0 || day === 6 || t >= close) {
      t = dayStart + 24 * HOUR + cal.startHour * HOUR;
      continue;
    }
    if (t < open) t = open;
    const step = Math.min(remaining, close - t);
    t += step;
    remaining -= step;
  }
  return new Date(t - offset);
}
