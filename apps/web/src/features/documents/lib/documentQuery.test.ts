import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_VIEWS } from './documentKinds.ts';
import {
  countActiveFilters,
  dateRangeChanges,
  documentApiQuery,
  readLanguage,
  readOrdering,
  sanitizeDocumentParams,
  withParams,
} from './documentQuery.ts';

describe('document list parameters', () => {
  it('keeps known, valid parameters and drops the rest (sensors only for instructions)', () => {
    const raw = new URLSearchParams(
      'search=%20vpn%20&bogus=1&ordering=nonsense&created__gte=yesterday&sensors__in=ids&tags__in=a,b&language=de',
    );
    expect(sanitizeDocumentParams(raw, DOCUMENT_VIEWS.instructions).toString()).toBe(
      'search=vpn&sensors__in=ids&tags__in=a%2Cb',
    );
    expect(sanitizeDocumentParams(raw, DOCUMENT_VIEWS.articles).toString()).toBe('search=vpn&tags__in=a%2Cb');
  });

  it('defaults to last update descending and leaves that default out of the URL', () => {
    const params = new URLSearchParams();
    expect(readOrdering(params)).toBe('-updated');
    expect(withParams(params, { ordering: 'title' }).toString()).toBe('ordering=title');
    expect(withParams(new URLSearchParams('ordering=title'), { ordering: '-updated' }).toString()).toBe('');
  });

  it('removes a filter with an empty value and trims the search', () => {
    const params = new URLSearchParams('tags__in=a&search=x');
    expect(withParams(params, { tags__in: [], search: '  ' }).toString()).toBe('');
  });

  it('uses the interface language unless one is selected, and always sends it', () => {
    expect(readLanguage(new URLSearchParams(), 'ru')).toBe('ru');
    expect(readLanguage(new URLSearchParams('language=en'), 'ru')).toBe('en');
    expect(documentApiQuery(new URLSearchParams('search=a'), 'en')).toEqual({
      search: 'a',
      ordering: '-updated',
      language: 'en',
    });
  });

  it('turns a date range into the start of its first day and the end of its last', () => {
    const changes = dateRangeChanges('created', [dayjs('2026-03-02T15:00'), dayjs('2026-03-05T08:00')]);
    expect(changes.created__gte).toBe(dayjs('2026-03-02T00:00:00.000').toISOString());
    expect(changes.created__lte).toBe(dayjs('2026-03-05T23:59:59.999').toISOString());
    expect(dateRangeChanges('updated', null)).toEqual({ updated__gte: null, updated__lte: null });
  });

  it('counts a date range as one filter and ignores search, sort and language', () => {
    const params = new URLSearchParams(
      'created__gte=2026-01-01&created__lte=2026-01-02&tags__in=a&search=x&ordering=title&language=en',
    );
    expect(countActiveFilters(params)).toBe(2);
  });
});
