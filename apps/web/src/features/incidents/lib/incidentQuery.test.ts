import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  countActiveFilters,
  dateRangeChanges,
  incidentApiQuery,
  readBool,
  readList,
  readOrdering,
  sanitizeIncidentParams,
  withParams,
} from './incidentQuery.ts';

describe('sanitizeIncidentParams', () => {
  it('keeps known filters with valid values, sorted', () => {
    const params = sanitizeIncidentParams(
      new URLSearchParams('status__in=closed,canceled&ordering=-updated&search= vpn &sla_breached=true'),
    );
    expect(params.toString()).toBe(
      'ordering=-updated&search=vpn&sla_breached=true&status__in=closed%2Ccanceled',
    );
  });

  it('drops unknown keys, the language, invalid values and invalid list items', () => {
    const params = sanitizeIncidentParams(
      new URLSearchParams(
        'foo=1&language=ru&limit=5&ordering=sideways&priority__in=high,urgent&technique__in=T1059.001,bogus&created__gte=yesterday&system__in=abc',
      ),
    );
    expect(Object.fromEntries(params)).toEqual({ priority__in: 'high', technique__in: 'T1059.001' });
  });
});

describe('withParams', () => {
  it('sets lists comma-joined and removes empty values', () => {
    const base = new URLSearchParams('status__in=closed&search=x');
    const next = withParams(base, {
      status__in: [],
      priority__in: ['high', 'low'],
      search: '  ',
      host__icontains: 'srv',
    });
    expect(Object.fromEntries(next)).toEqual({ priority__in: 'high,low', host__icontains: 'srv' });
    expect(base.toString()).toBe('status__in=closed&search=x');
  });

  it('escapes commas inside list values so that they read back whole', () => {
    const next = withParams(new URLSearchParams(), {
      rule__in: ['Logon, then escalation', 'DNS tunnelling'],
    });
    expect(next.get('rule__in')).toBe('Logon\\, then escalation,DNS tunnelling');
    expect(readList(next, 'rule__in')).toEqual(['Logon, then escalation', 'DNS tunnelling']);
  });

  it('leaves the default ordering implicit', () => {
    expect(withParams(new URLSearchParams('ordering=priority'), { ordering: '-created' }).toString()).toBe(
      '',
    );
    expect(readOrdering(new URLSearchParams())).toBe('-created');
    expect(readOrdering(withParams(new URLSearchParams(), { ordering: 'updated' }))).toBe('updated');
  });
});

describe('readers', () => {
  it('read lists and booleans', () => {
    const params = new URLSearchParams(
      'status__in=closed, canceled,&sla_breached=1&gossopka_id__isnull=False',
    );
    expect(readList(params, 'status__in')).toEqual(['closed', 'canceled']);
    expect(readBool(params, 'sla_breached')).toBe('true');
    expect(readBool(params, 'gossopka_id__isnull')).toBe('false');
    expect(readBool(params, 'customer_assignee__isnull')).toBeNull();
  });
});

describe('incidentApiQuery', () => {
  it('adds the ordering in effect and the language', () => {
    expect(incidentApiQuery(new URLSearchParams('status__in=closed'), 'ru')).toEqual({
      status__in: 'closed',
      ordering: '-created',
      language: 'ru',
    });
  });
});

describe('countActiveFilters', () => {
  it('counts filters, a date range once, and not search or sort', () => {
    expect(
      countActiveFilters(
        new URLSearchParams('search=x&ordering=status&created__gte=1&created__lte=2&status__in=closed'),
      ),
    ).toBe(2);
  });
});

describe('dateRangeChanges', () => {
  it('covers the start of the first day to the end of the last', () => {
    const changes = dateRangeChanges('created', [dayjs('2026-03-02T15:20'), dayjs('2026-03-05T08:00')]);
    expect(changes.created__gte).toBe(dayjs('2026-03-02T00:00:00.000').valueOf());
    expect(changes.created__lte).toBe(dayjs('2026-03-05T23:59:59.999').valueOf());
  });

  it('removes an open bound, or both when cleared', () => {
    expect(dateRangeChanges('sla', [dayjs('2026-03-02'), null])).toEqual({
      sla__gte: dayjs('2026-03-02').startOf('day').valueOf(),
      sla__lte: null,
    });
    expect(dateRangeChanges('resolutiondate', null)).toEqual({
      resolutiondate__gte: null,
      resolutiondate__lte: null,
    });
  });
});
