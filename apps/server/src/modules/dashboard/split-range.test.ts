import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RangeSplit } from './split-range.ts';
import { DAY_MS, HOUR_MS, splitRange } from './split-range.ts';

const dayStart = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** How many parts of a split contain the instant `t` (in ms; the µs before and after count too). */
function cover(split: RangeSplit, t: number): number {
  let n = 0;
  if (split.days && t >= dayStart(split.days.from) && t < dayStart(split.days.to) + DAY_MS) n++;
  for (const h of split.hours) if (t >= h.from && t < h.to) n++;
  for (const e of split.edges) if (t >= e.from && (e.closedEnd ? t <= e.to : t < e.to)) n++;
  return n;
}

const NOW = Date.parse('2026-11-20T12:34:56.789Z');

describe('splitRange', () => {
  it('splits ragged ends into whole hours and two partial hours when asked', () => {
    const gte = Date.parse('2026-11-01T05:20:00.000Z');
    const lte = Date.parse('2026-11-10T07:45:00.000Z');
    expect(splitRange(gte, lte, NOW, { days: true, hours: true })).toEqual({
      days: { from: '2026-11-02', to: '2026-11-09' },
      hours: [
        { from: Date.parse('2026-11-01T06:00:00Z'), to: Date.parse('2026-11-02T00:00:00Z') },
        { from: Date.parse('2026-11-10T00:00:00Z'), to: Date.parse('2026-11-10T07:00:00Z') },
      ],
      edges: [
        { from: gte, to: Date.parse('2026-11-01T06:00:00Z'), closedEnd: false },
        { from: Date.parse('2026-11-10T07:00:00Z'), to: lte, closedEnd: true },
      ],
    });
    // without hourly rows (a customer's systems) the partial days are counted whole, as before
    expect(splitRange(gte, lte, NOW)).toEqual({
      days: { from: '2026-11-02', to: '2026-11-09' },
      hours: [],
      edges: [
        { from: gte, to: Date.parse('2026-11-02T00:00:00Z'), closedEnd: false },
        { from: Date.parse('2026-11-10T00:00:00Z'), to: lte, closedEnd: true },
      ],
    });
  });

  it('keeps a closed end that falls on a boundary as an edge (an incident at that instant counts)', () => {
    const lte = Date.parse('2026-11-10T07:00:00.000Z');
    const split = splitRange(lte - 3 * HOUR_MS, lte, NOW, { days: true, hours: true });
    expect(split.edges).toEqual([{ from: lte, to: lte, closedEnd: true }]);
    expect(split.hours).toEqual([{ from: lte - 3 * HOUR_MS, to: lte }]);
  });

  it('reads the last unit whole when the range reaches into the future', () => {
    const gte = NOW - 5 * HOUR_MS - 1;
    const split = splitRange(gte, NOW + 1, NOW, { days: false, hours: true });
    expect(split.edges).toEqual([{ from: gte, to: Math.ceil(gte / HOUR_MS) * HOUR_MS, closedEnd: false }]);
    expect(split.hours.at(-1)!.to).toBe(Math.ceil(NOW / HOUR_MS) * HOUR_MS);
  });

  it('covers every instant of the range exactly once and nothing before it (property)', () => {
    const instant = fc.integer({ min: NOW - 400 * DAY_MS, max: NOW + 3 * DAY_MS });
    fc.assert(
      fc.property(
        instant,
        instant,
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 4 }),
        (a, b, days, hours, offsets) => {
          const [gte, lte] = a <= b ? [a, b] : [b, a];
          const split = splitRange(gte, lte, NOW, { days, hours });
          const probes = [gte, lte, Math.floor((gte + lte) / 2), Math.ceil(gte / HOUR_MS) * HOUR_MS];
          for (const p of [...probes])
            for (const o of offsets) probes.push(p + o, p + o * HOUR_MS, p + o * DAY_MS);
          for (const t of probes) {
            const inside = t >= gte && t <= lte;
            // beyond `lte`, a part may reach only where no incident exists yet: the future
            if (inside) expect(cover(split, t), `${t}`).toBe(1);
            else if (t < gte || t < NOW) expect(cover(split, t), `${t}`).toBe(0);
            else expect(cover(split, t)).toBeLessThanOrEqual(1);
          }
          if (!hours) expect(split.hours).toEqual([]);
          if (!days) expect(split.days).toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
  });
});
