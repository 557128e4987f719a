import type { Eps, EpsBucket, TimelineEntry, Timespan } from '@soc/contracts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Events per second of an hourly bucket of `events` events (rounded to 0.01). */
export const epsOf = (events: number) => Math.round((events / 3600) * 100) / 100;

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The excess of an hourly EPS series over the contracted EPS: hours above it, merged into runs of
 * consecutive hours (`excess_buckets`), their total duration in seconds and the largest value.
 * A contracted EPS of 0 means none was agreed: nothing is an excess.
 */
export function epsExcess(
  hourly: readonly { start: number; value: number }[],
  contracted: number,
): Pick<Eps, 'excess_duration' | 'excess_max_value' | 'excess_buckets' | 'excess'> {
  const above = contracted > 0 ? hourly.filter((h) => h.value > contracted) : [];
  const runs: EpsBucket[] = [];
  for (const h of above) {
    const last = runs.at(-1);
    if (last && last.end === h.start) last.end = h.start + HOUR_MS;
    else runs.push({ start: h.start, end: h.start + HOUR_MS });
  }
  const duration = (above.length * HOUR_MS) / 1000;
  const max = above.reduce((m, h) => Math.max(m, h.value), 0);
  return {
    excess_duration: duration,
    excess_max_value: max,
    excess_buckets: runs,
    excess: {
      excess_duration: duration,
      max_value: max,
      excess_count: runs.length,
      timeline_buckets: above.map((h) => ({ start: h.start, end: h.start + HOUR_MS, value: h.value })),
    },
  };
}

/** Hours for ranges up to two days, else days. */
export const timespanOf = (gte: number, lte: number): Timespan => (lte - gte <= 2 * DAY_MS ? 'hour' : 'day');

/** The EPS timeline: hourly values, or per UTC day the average of its hours with data. */
export function epsTimeline(
  hourly: readonly { start: number; value: number }[],
  span: Timespan,
): TimelineEntry[] {
  if (span === 'hour') return hourly.map((h) => ({ item: h.start, value: h.value, timespan: 'hour' }));
  const days = new Map<number, { sum: number; hours: number }>();
  for (const h of hourly) {
    const day = Math.floor(h.start / DAY_MS) * DAY_MS;
    const d = days.get(day) ?? { sum: 0, hours: 0 };
    d.sum += h.value;
    d.hours += 1;
    days.set(day, d);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, d]) => ({ item: day, value: round2(d.sum / d.hours), timespan: 'day' }));
}
