import { describe, expect, it } from 'vitest';
import { formatCountdown } from './countdown.ts';

describe('formatCountdown', () => {
  it('shows hours, minutes and seconds with two digits each', () => {
    expect(formatCountdown(((1 * 60 + 2) * 60 + 3) * 1000)).toBe('01:02:03');
    expect(formatCountdown(59_000)).toBe('00:00:59');
  });

  it('rounds a partial second up so that 00:00:00 shows only at the deadline', () => {
    expect(formatCountdown(1)).toBe('00:00:01');
    expect(formatCountdown(0)).toBe('00:00:00');
  });

  it('never goes below zero and lets hours grow past a day', () => {
    expect(formatCountdown(-5000)).toBe('00:00:00');
    expect(formatCountdown(30 * 3600 * 1000)).toBe('30:00:00');
  });
});
