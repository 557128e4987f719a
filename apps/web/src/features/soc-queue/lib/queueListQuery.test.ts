import { describe, expect, it } from 'vitest';
import { queueApiQuery, queueCountsQuery, sanitizeQueueParams, withQueueParams } from './queueListQuery.ts';

describe('the queue’s query string', () => {
  it('keeps what GET /analyst/queue/ accepts and drops the rest', () => {
    const params = sanitizeQueueParams(
      new URLSearchParams(
        'status__in=waiting_for_support,closed&reason__in=reopened,nope&mine=maybe&sla_state__in=near&page=3&ordering=colour',
      ),
    );
    expect(params.toString()).toBe('reason__in=reopened&sla_state__in=near&status__in=waiting_for_support');
    expect(queueApiQuery(params).ordering).toBe('sla');
  });

  it('leaves the default ordering implicit and drops emptied filters', () => {
    const params = withQueueParams(new URLSearchParams('mine=true'), { ordering: 'sla', mine: null });
    expect(params.toString()).toBe('');
    expect(withQueueParams(params, { ordering: '-priority' }).toString()).toBe('ordering=-priority');
  });

  it('asks the counts with the filters but the tenant and the sort', () => {
    expect(queueCountsQuery(new URLSearchParams('system__in=1&priority__in=high&ordering=-updated'))).toEqual(
      { priority__in: 'high' },
    );
  });
});
