export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** A part of a range counted over the incidents: [from, to), or [from, to] where `closedEnd`. */
export interface RangeEdge {
  from: number;
  to: number;
  closedEnd: boolean;
}

/**
 * A created range split into whole UTC days, which the daily table answers, whole UTC hours, which
 * the hourly table answers (only where asked: it holds all systems together), and the partial
 * hours or days at its ends, which are counted over the incidents. A day or hour is whole only when
 * the range covers all of it (`lte` at or after its end), so that the seams are exact to the
 * microsecond.
 */
export interface RangeSplit {
  /** First and last whole day (`YYYY-MM-DD`), or null when no day is whole (or days are not used). */
  days: { from: string; to: string } | null;
  /** Half-open [from, to) millisecond intervals of whole hours outside the whole days. */
  hours: { from: number; to: number }[];
  edges: RangeEdge[];
}

/**
 * The ISO 8601 text of `ms` as PostgreSQL reads it: JavaScript writes years past 9999 as
 * `+010000-…`, which PostgreSQL refuses; the bounds computed past a filter's last day reach them.
 */
export const pgIso = (ms: number) => new Date(ms).toISOString().replace(/^\+0*/, '');

const isoDay = (ms: number) => pgIso(ms).slice(0, -14);

/**
 * The whole units of `grain` ms inside `edge`, and what is left of it. The unit of a closed end
 * is whole when the range reaches the next unit, or when `future`: `lte` lies in the future, and
 * no incident exists beyond it yet.
 */
function splitEdge(edge: RangeEdge, grain: number, future: boolean) {
  const first = Math.ceil(edge.from / grain) * grain;
  const end = edge.closedEnd
    ? (Math.floor(edge.to / grain) + (future ? 1 : 0)) * grain
    : Math.floor(edge.to / grain) * grain;
  if (end <= first) return { whole: null, rest: [edge] };
  const rest: RangeEdge[] = [];
  if (edge.from < first) rest.push({ from: edge.from, to: first, closedEnd: false });
  if (edge.closedEnd ? !future : end < edge.to)
    rest.push({ from: end, to: edge.to, closedEnd: edge.closedEnd });
  return { whole: { from: first, to: end }, rest };
}

export function splitRange(
  gte: number,
  lte: number,
  now = Date.now(),
  grains: { days: boolean; hours: boolean } = { days: true, hours: false },
): RangeSplit {
  const future = lte >= now;
  let edges: RangeEdge[] = [{ from: gte, to: lte, closedEnd: true }];
  let days: RangeSplit['days'] = null;
  if (grains.days) {
    const split = splitEdge(edges[0]!, DAY_MS, future);
    if (split.whole) days = { from: isoDay(split.whole.from), to: isoDay(split.whole.to - DAY_MS) };
    edges = split.rest;
  }
  const hours: RangeSplit['hours'] = [];
  if (grains.hours) {
    edges = edges.flatMap((edge) => {
      const split = splitEdge(edge, HOUR_MS, future);
      if (split.whole) hours.push(split.whole);
      return split.rest;
    });
  }
  return { days, hours, edges };
}
