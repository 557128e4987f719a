import type { LiveEvent } from '@soc/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateForEvent } from './liveInvalidation.ts';

const event = (over: Partial<LiveEvent>): LiveEvent => ({
  id: 1,
  type: 'incident.created',
  key: 10001,
  report_id: null,
  status: 'waiting_for_customer',
  previous_status: null,
  from_soc: null,
  summary: 'x',
  reporter_id: null,
  created: 0,
  ...over,
});

/** A client holding one cached answer under each key; returns which became stale. */
function staleAfter(e: LiveEvent): string[] {
  const client = new QueryClient();
  const keys: [label: string, key: unknown[]][] = [
    ['incidents:list', ['incidents', 'list', { filters: '', language: 'en' }]],
    ['dashboard:newest', ['dashboard', 'newest', '']],
    ['dashboard:analytics', ['dashboard', 'analytics', {}]],
    ['incident:10001', ['incident', 10001, 'comments']],
    ['incident:10002', ['incident', 10002, 'comments']],
    ['reports:list', ['reports', 'list', '']],
    ['soc-queue:list', ['soc-queue', 'list', '']],
    ['soc-queue:counts', ['soc-queue', 'counts', '']],
  ];
  for (const [, key] of keys) client.setQueryData(key, 1);
  invalidateForEvent(client, e);
  return keys.filter(([, key]) => client.getQueryState(key)?.isInvalidated).map(([label]) => label);
}

describe('invalidateForEvent', () => {
  it('refreshes the incident lists and the newest incident on a new incident', () => {
    expect(staleAfter(event({}))).toEqual([
      'incidents:list',
      'dashboard:newest',
      'soc-queue:list',
      'soc-queue:counts',
    ]);
  });
  it('refreshes the lists, that incident’s page and the SOC queue on a change, its page and the queue on a comment', () => {
    expect(staleAfter(event({ type: 'incident.updated' }))).toEqual([
      'incidents:list',
      'incident:10001',
      'soc-queue:list',
      'soc-queue:counts',
    ]);
    expect(staleAfter(event({ type: 'comment.created', from_soc: true }))).toEqual([
      'incident:10001',
      'soc-queue:list',
      'soc-queue:counts',
    ]);
  });
  it('refreshes the report lists when a report is ready', () => {
    expect(staleAfter(event({ type: 'report.ready', key: null, report_id: 3 }))).toEqual(['reports:list']);
  });
});
