import { describe, expect, it } from 'vitest';
import { notModified } from './conditional.ts';

const current = { etag: '"abc"', lastModified: Date.UTC(2026, 10, 26, 12, 0, 0, 700) };
const httpDate = (ms: number) => new Date(ms).toUTCString();

describe('conditional GET (RFC 9110 §13.2.2)', () => {
  it('matches If-None-Match by weak comparison, in a list, or *', () => {
    expect(notModified({ 'if-none-match': '"abc"' }, current)).toBe(true);
    expect(notModified({ 'if-none-match': 'W/"abc"' }, current)).toBe(true);
    expect(notModified({ 'if-none-match': '"x", "abc"' }, current)).toBe(true);
    expect(notModified({ 'if-none-match': '*' }, current)).toBe(true);
    expect(notModified({ 'if-none-match': '"abd"' }, current)).toBe(false);
  });

  it('ignores If-Modified-Since when If-None-Match is present', () => {
    const later = httpDate(current.lastModified + 60_000);
    expect(notModified({ 'if-none-match': '"old"', 'if-modified-since': later }, current)).toBe(false);
  });

  it('compares If-Modified-Since in whole seconds', () => {
    const sameSecond = httpDate(current.lastModified);
    expect(notModified({ 'if-modified-since': sameSecond }, current)).toBe(true);
    expect(notModified({ 'if-modified-since': httpDate(current.lastModified - 1000) }, current)).toBe(false);
    expect(notModified({ 'if-modified-since': 'not a date' }, current)).toBe(false);
    expect(notModified({ 'if-modified-since': sameSecond }, { ...current, lastModified: null })).toBe(false);
    expect(notModified({}, current)).toBe(false);
  });
});
