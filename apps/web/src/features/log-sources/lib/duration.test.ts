import { describe, expect, it } from 'vitest';
import { durationParts } from './duration.ts';

describe('durationParts', () => {
  it('picks the largest whole unit', () => {
    expect(durationParts(-5)).toEqual({ unit: 'seconds', n: 0 });
    expect(durationParts(59_999)).toEqual({ unit: 'seconds', n: 59 });
    expect(durationParts(60_000)).toEqual({ unit: 'minutes', n: 1 });
    expect(durationParts(3 * 3_600_000 + 5)).toEqual({ unit: 'hours', n: 3 });
    expect(durationParts(47 * 3_600_000)).toEqual({ unit: 'hours', n: 47 });
    expect(durationParts(72 * 3_600_000)).toEqual({ unit: 'days', n: 3 });
  });
});
