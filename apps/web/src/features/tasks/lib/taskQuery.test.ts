import { describe, expect, it } from 'vitest';
import { readTaskOrdering, sanitizeTaskParams, taskApiQuery, withTaskParams } from './taskQuery.ts';

describe('task list parameters', () => {
  it('keep known filters with valid values only (a stale URL never gives a 400)', () => {
    const params = sanitizeTaskParams(
      new URLSearchParams(
        'status__in=open,bogus&type__in=question&colour=red&ordering=nonsense&id=4&search=%20vpn%20',
      ),
    );
    expect(params.toString()).toBe('search=vpn&status__in=open&type__in=question');
  });

  it('leave the default ordering implicit and drop empty values', () => {
    const params = withTaskParams(new URLSearchParams('search=vpn'), { ordering: '-updated', search: ' ' });
    expect(params.toString()).toBe('');
    const sorted = withTaskParams(params, { ordering: 'created', priority__in: ['high', 'low'] });
    expect(readTaskOrdering(sorted)).toBe('created');
    expect(taskApiQuery(new URLSearchParams())).toEqual({ ordering: '-updated' });
  });
});
