import { describe, expect, it } from 'vitest';
import { csvList, joinList, splitList } from './query.ts';
import { z } from 'zod';

describe('field__in lists', () => {
  it('splits on commas, trims and drops empty values', () => {
    expect(splitList(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(splitList('')).toEqual([]);
  });

  it('reads back values that hold commas and backslashes', () => {
    const values = ['Brute force, then login', 'C:\\Windows\\Temp', 'plain', 'trailing\\'];
    expect(joinList(values)).toBe('Brute force\\, then login,C:\\\\Windows\\\\Temp,plain,trailing\\\\');
    expect(splitList(joinList(values))).toEqual(values);
    expect(csvList(z.string()).parse(joinList(values))).toEqual(values);
  });
});
