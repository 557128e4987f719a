/**
 * EPS chart constants (product §A9): column max width 20, 14 or 8 and corner radius 4, 3 or 2
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

/**
 * How far above the busiest hour the contract may be and still share the value axis: beyond it
 * the columns would shrink to a strip at the bottom, so the axis follows the data and the
 * contract is named above the chart instead.
 */
export const CONTRACT_ON_AXIS_RATIO = 2;

/** The value axis of the EPS chart. */
export interface EpsAxis {
  /** The top of the axis; undefined lets ECharts round the data's peak up to a tick. */
  max?: number;
  /** The grid step; undefined lets ECharts choose ticks for the data. */
  interval?: number;
  /** Whether the contracted EPS is drawn as a line on the axis (else it is named above it). */
  contractOnAxis: boolean;
}

/**
 * The EPS value axis follows the data. The contract line is kept on the axis (a step above the
 * higher of the peak and the contract, in the spec's grid step) while it is within
 * CONTRACT_ON_AXIS_RATIO of the peak; a contract far above the data would flatten the columns
 * (7,500 on the axis for hours of 800), so then the axis is the data's alone.
 */
export function epsAxis(peak: number, contracted: number): EpsAxis {
  if (contracted <= 0 || contracted > CONTRACT_ON_AXIS_RATIO * peak) return { contractOnAxis: false };
  const step = epsGridStep(contracted);
  const top = Math.max(peak, contracted);
  return { max: Math.ceil((top * 1.1) / step) * step, interval: step, contractOnAxis: true };
}

/** A duration in seconds as hours and minutes (`5 h`, `1 h 30 min` → in the caller's words). */
export const durationHours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;
