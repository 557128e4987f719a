import {
  INCIDENTS_PAGE_SIZE,
  type FilterChoices,
  type IncidentListItem,
  type IncidentListResponse,
} from '@soc/contracts';
import type { MockRequest, MockResponse } from '../../../test/fetchMock.ts';

const BASE_TIME = Date.UTC(2026, 0, 15, 9, 30);

/** An incident list item; `key` also seeds the times so that items differ. */
export function makeIncident(key: number, overrides: Partial<IncidentListItem> = {}): IncidentListItem {
  return {
    id: `00000000-0000-4000-8000-${String(key).padStart(12, '0')}`,
    key,
    summary: `Suspicious activity ${key}`,
    priority: 'high',
    status: 'waiting_for_customer',
    created: BASE_TIME - key * 60_000,
    updated: BASE_TIME - key * 30_000,
    system: { id: 1, is_id: 'IS-0001', full_name: 'Main office' },
    service: { id: 3, name: 'Vision' },
    issuetype_ref: { id: 1, title: 'Incident', code: 'incident' },
    category_ref: [{ id: 10, title: 'Malware' }],
    secondary_category_ref: [],
    tags: [],
    sla: BASE_TIME + 3_600_000,
    sla_breached: false,
    notified: null,
    customer_assignee: null,
    resolution: null,
    resolution_name_ref: null,
    resolutiondate: null,
    gossopka_id: null,
    reporter_displayName: 'SOC analyst',
    customer_star_rating: null,
    comments_count: 0,
    ...overrides,
  };
}

/** Keys `from`, `from + 1`, … (`count` of them). */
export const keysFrom = (from: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => from + i);

/** One page of the incident list as the server answers it. */
export function incidentPage(
  keys: readonly number[],
  {
    total = keys.length,
    offset = 0,
    exact = true,
  }: { total?: number; offset?: number; exact?: boolean } = {},
): IncidentListResponse {
  const end = offset + keys.length;
  return {
    total,
    total_exact: exact,
    next:
      end < total || !exact
        ? `http://localhost/api/v0/soc/incs/?limit=${INCIDENTS_PAGE_SIZE}&offset=${end}`
        : null,
    previous: offset > 0 ? `http://localhost/api/v0/soc/incs/?limit=${INCIDENTS_PAGE_SIZE}&offset=0` : null,
    results: keys.map((key) => makeIncident(key)),
  };
}

/**
 * A list endpoint over `total` incidents (keys 1…total), paged by the request's limit/offset.
 */
export function pagedIncidents(total: number) {
  return (request: MockRequest): MockResponse => {
    const limit = Number(request.url.searchParams.get('limit') ?? INCIDENTS_PAGE_SIZE);
    const offset = Number(request.url.searchParams.get('offset') ?? 0);
    const count = Math.max(0, Math.min(limit, total - offset));
    return { body: incidentPage(keysFrom(offset + 1, count), { total, offset }) };
  };
}

export const filterChoices: FilterChoices = {
  systems: [
    { id: 1, is_id: 'IS-0001', full_name: 'Main office' },
    { id: 2, is_id: 'IS-0002', full_name: 'Data centre' },
  ],
  issue_types: [
    { id: 1, title: 'Incident', code: 'incident' },
    { id: 2, title: 'Request', code: 'request' },
  ],
  categories: [
    { id: 10, title: 'Malware', code: 'malware', issue_type: 1 },
    { id: 11, title: 'Phishing', code: 'phishing', issue_type: 1 },
    { id: 20, title: 'Question', code: 'question', issue_type: 2 },
  ],
  resolutions: [],
  priorities: ['critical', 'high', 'medium', 'low'],
  statuses: [
    'waiting_for_customer',
    'waiting_for_support',
    'work_in_progress',
    'customer_completed',
    'completed',
    'closed',
    'canceled',
  ],
  base_services: ['Vision', 'Horizon'],
  users: [{ id: 7, username: 'ivanov', full_name: 'Ivan Ivanov' }],
};
