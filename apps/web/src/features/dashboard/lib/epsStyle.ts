/**
 * EPS chart constants (spec 000 §9): column max width 20, 14 or 8 and corner radius 4, 3 or 2
 * for fewer than 31, 31 or more, and 61 or more points.
 */
export function epsColumnStyle(points: number): { barMaxWidth: number; borderRadius: number } {
  if (points >= 61) return { barMaxWidth: 8, borderRadius: 2 };
  if (points >= 31) return { barMaxWidth: 14, borderRadius: 3 };
  return { barMaxWidth: 20, borderRadius: 4 };
}

/** Grid step of the value axis: 500, 1000 or 1500 depending on the contracted EPS. */
export function epsGridStep(contracted: number): number {
  if (contracted > 5000) return 1500;
  if (contracted > 2000) return 1000;
  return 500;
}

/** A duration in seconds as hours and minutes (`5 h`, `1 h 30 min` → in the caller's words). */
export const durationHours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;
