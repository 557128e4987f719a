import { describe, expect, it } from 'vitest';
import { tacticsPerRow } from './AttackMatrix.tsx';

describe('tactics to a row of the ATT&CK matrix', () => {
  it('fits as many columns as the width takes, balanced over the rows it then needs', () => {
    // the dashboard at 1440 px (about 1360 px inside the card): 8 fit, so two rows of 7
    expect(tacticsPerRow(14, 1360, 4)).toBe(7);
    // at 1920 px 11 fit: still two rows, of 7, rather than 11 and 3
    expect(tacticsPerRow(14, 1840, 4)).toBe(7);
    // a box wide enough for all: one row
    expect(tacticsPerRow(14, 14 * 156, 4)).toBe(14);
    // the rules view beside its panel at 1440 px: 6 fit, three rows of 5, 5 and 4
    expect(tacticsPerRow(14, 1000, 4)).toBe(5);
    // a phone: one a row
    expect(tacticsPerRow(14, 300, 4)).toBe(1);
  });

  it('lays every tactic in one row before the width is known', () => {
    expect(tacticsPerRow(14, 0, 4)).toBe(14);
    expect(tacticsPerRow(0, 1000, 4)).toBe(1);
  });
});
