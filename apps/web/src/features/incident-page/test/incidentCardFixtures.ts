import type { Comment, IncidentCard } from '@soc/contracts';
import { authStore } from '@/shared/api/authStore.ts';
import { mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { makeIncident } from '../../incidents/test/incidentFixtures.ts';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';

export const KEY = 4242;
export const CARD = `GET /api/v0/soc/incs/${KEY}/`;
export const ACTIONS = `GET /api/v0/soc/incs/${KEY}/available_actions/`;
export const COMMENTS = `GET /api/v0/soc/incs/${KEY}/comments/`;
export const ADD_COMMENT = `POST /api/v0/soc/incs/${KEY}/comments/`;
export const RESOLUTIONS = 'GET /api/v0/soc/issues/1/resolutions/';
export const USERS = 'GET /api/v0/soc/users/';
export const ALERTS = `GET /api/v0/soc/incs/${KEY}/alerts/`;

/** The card of incident KEY, waiting for the customer, unassigned, unrated. */
export function makeCard(overrides: Partial<IncidentCard> = {}): IncidentCard {
  return {
    ...makeIncident(KEY, { summary: 'Beaconing to a known C2 server' }),
    description: 'Host **ws-17** talks to a C2 server.',
    rendered_description: '<p>Host <strong>ws-17</strong> talks to a C2 server.</p>',
    recommendations: 'Isolate the host.',
    rendered_recommendations: '<p>Isolate the host.</p>',
    status_description: '',
    affected_systems: ['ws-17.corp.local'],
    parsed_activity_detected: null,
    attachments: [],
    customer_assignee_last_time: null,
    customer_star_rating_comment: null,
    can_rate: false,
    allowed_priorities: ['low', 'medium', 'high'],
    mitre_cov: { 'command-and-control': ['T1071.001'] },
    detection_rules: ['C2 beacon interval'],
    observed_iocs: [{ ioc: '203.0.113.7', ioc_type: 'ipv4', category: ['C2'] }],
    related_incidents: [],
    gossopka_state: 'not_sent',
    gossopka_id: null,
    gossopka_send_time: null,
    gossopka_planned_time: null,
    gossopka_processing_since: null,
    gossopka_error: null,
    show_gossopka_button: false,
    ...overrides,
  };
}

/** A comment of incident KEY. */
export function makeComment(id: number, overrides: Partial<Comment> = {}): Comment {
  return {
    id,
    author: 'SOC analyst',
    author_id: 2,
    body: `<p>Comment ${id}</p>`,
    created: Date.UTC(2026, 0, 15, 10, id),
    attachments: [],
    source: 'API',
    from_soc: true,
    from_national_centre: false,
    issue_completed: false,
    is_mine: false,
    ...overrides,
  };
}

export const commentsPage = (comments: Comment[]) => ({
  total: comments.length,
  next: null,
  previous: null,
  results: comments,
});

/** Signs in and opens the incident page with its endpoints mocked. */
export function openIncident(routes: MockRoutes = {}, path = `/inc/${KEY}`) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      [CARD]: { body: makeCard() },
      [ACTIONS]: { body: { results: ['confirm', 'close'] } },
      [COMMENTS]: { body: commentsPage([]) },
      [RESOLUTIONS]: {
        body: {
          total: 2,
          next: null,
          previous: null,
          results: [
            { id: 31, title: 'Confirmed attack', kind: 'TP' },
            { id: 32, title: 'Legitimate activity', kind: 'FP' },
          ],
        },
      },
      [USERS]: { body: { total: 0, next: null, previous: null, results: [] } },
      [ALERTS]: { body: { total: 0, next: null, previous: null, results: [] } },
      'GET /api/v0/soc/incs/': { body: { total: 0, next: null, previous: null, results: [] } },
      'GET /api/v0/soc/filters/': {
        body: {
          systems: [],
          issue_types: [],
          categories: [],
          resolutions: [],
          priorities: [],
          statuses: [],
          base_services: [],
          users: [],
        },
      },
      ...routes,
    }),
  );
  const app = renderApp(path);
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...app, user, fetchMock };
}
