import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { latestTokenExpiry, tokenExpiryOf } from './tokenExpiry.ts';

describe('tokenExpiryOf', () => {
  const now = dayjs('2026-11-25T21:00:00Z');

  it('ends the token at the end of the chosen day', () => {
    const day = now.add(30, 'day');
    expect(tokenExpiryOf(day, now)).toBe(day.endOf('day').toISOString());
  });

  it('never goes past a year from now, even on the last selectable day', () => {
    expect(tokenExpiryOf(latestTokenExpiry(now), now)).toBe(now.add(365, 'day').toISOString());
  });
});
