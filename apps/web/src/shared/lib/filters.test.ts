import { describe, expect, it } from 'vitest';
import { filtersToParams, normalizeFilterParams, readStoredFilters, writeStoredFilters } from './filters.ts';

describe('filters storage', () => {
  it('keeps one query string per entity under the filters key', () => {
    writeStoredFilters('incidents', '?status__in=1,2&ordering=-created');
    writeStoredFilters('reports', 'search=weekly');
    expect(readStoredFilters('incidents')).toBe('status__in=1,2&ordering=-created');
    expect(readStoredFilters('reports')).toBe('search=weekly');
    expect(JSON.parse(window.localStorage.getItem('filters') ?? '{}')).toEqual({
      incidents: 'status__in=1,2&ordering=-created',
      reports: 'search=weekly',
    });
  });

  it('removes an entity whose filters are cleared, and the key when none are left', () => {
    writeStoredFilters('incidents', 'a=1');
    writeStoredFilters('incidents', '');
    expect(readStoredFilters('incidents')).toBe('');
    expect(window.localStorage.getItem('filters')).toBeNull();
  });

  it('ignores corrupt storage', () => {
    window.localStorage.setItem('filters', '{not json');
    expect(readStoredFilters('incidents')).toBe('');
    window.localStorage.setItem('filters', JSON.stringify({ incidents: 42 }));
    expect(readStoredFilters('incidents')).toBe('');
  });
});

describe('normalizeFilterParams', () => {
  it('trims search, drops empty values and sorts keys', () => {
    const params = normalizeFilterParams(
      new URLSearchParams('search=%20 phishing %20&status__in=&priority__in=high'),
    );
    expect(params.toString()).toBe('priority__in=high&search=phishing');
  });

  it('builds parameters from values', () => {
    expect(
      filtersToParams({
        status__in: ['1', '2'],
        search: ' x ',
        empty: '',
        missing: null,
        sla_breached: false,
      }).toString(),
    ).toBe('search=x&sla_breached=false&status__in=1%2C2');
  });
});
