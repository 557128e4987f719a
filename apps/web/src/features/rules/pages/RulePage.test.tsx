import type { IncidentListItem } from '@soc/contracts';
import { RULE_INCIDENTS_FIRST_PAGE } from '@soc/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { makeIncident } from '../../incidents/test/incidentFixtures.ts';
import { makeRule } from '../test/ruleFixtures.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const INCIDENTS = 'GET /api/v0/soc/incs/';
const ROW_HEIGHT = 48;
const VIEWPORT = 600;

const rule = { ...makeRule(5, { description_eng: 'Detects things.' }), source_yaml: null };
const SIGMA_YAML = `title: Encoded PowerShell
id: 5b0f6a1e-2222-4bbb-8bbb-000000000001
status: test
level: high # tune first
detection:
    selection:
        Image|endswith: '\\powershell.exe'
    condition: selection
`;
const imported = {
  ...makeRule(6, {
    rule_id: '5b0f6a1e-2222-4bbb-8bbb-000000000001',
    rule_caption_eng: 'Encoded PowerShell',
    rule_caption_rus: '',
    source: 'sigma',
    author: 'Jane Doe',
    source_status: 'test',
    authored_on: '2024-01-02',
    modified_on: '2025-03-04',
    false_positives: ['Administrators'],
    licence: {
      name: 'Detection Rule License (DRL) 1.1',
      url: 'https://github.com/SigmaHQ/Detection-Rule-License',
    },
  }),
  source_yaml: SIGMA_YAML,
};

const TOTAL = 45;
const incidents: IncidentListItem[] = Array.from({ length: TOTAL }, (_, index) => makeIncident(1000 + index));

function open(path = '/rule/5') {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      'GET /api/v0/soc/rules/5/': { body: rule },
      'GET /api/v0/soc/rules/6/': { body: imported },
      [INCIDENTS]: (request) => {
        const offset = Number(request.url.searchParams.get('offset'));
        const limit = Number(request.url.searchParams.get('limit'));
        const results = incidents.slice(offset, offset + limit);
        const next = offset + limit < TOTAL ? 'next' : null;
        return { body: { total: TOTAL, next, previous: null, results } };
      },
    }),
  );
  return { ...renderApp(path), fetchMock };
}

beforeEach(() => {
  window.localStorage.clear();
  // jsdom lays nothing out: give the virtualised feed a viewport and its rows a height
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? ROW_HEIGHT : 0;
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'rule-incidents-feed' ? VIEWPORT : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('rule page related incidents', () => {
  it('loads further pages as the feed scrolls, with no "Show more" button', async () => {
    const { user, fetchMock } = open();
    await user.click(await screen.findByRole('tab', { name: 'Related incidents' }, { timeout: 15_000 }));
    const feed = await screen.findByTestId('rule-incidents-feed');
    expect(feed).toHaveAttribute('role', 'feed');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, INCIDENTS).length).toBeGreaterThan(0));
    const firstCall = callsTo(fetchMock, INCIDENTS)[0]!;
    expect(firstCall.url.searchParams.get('limit')).toBe(String(RULE_INCIDENTS_FIRST_PAGE));

    // scrolling the feed to its end asks for the next pages until the total is loaded
    for (let round = 0; round < 4; round += 1) {
      feed.scrollTop = TOTAL * ROW_HEIGHT;
      fireEvent.scroll(feed);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await waitFor(() => {
      const offsets = callsTo(fetchMock, INCIDENTS).map((call) => call.url.searchParams.get('offset'));
      expect(offsets).toEqual(expect.arrayContaining(['0', '20', '30', '40']));
    });
    expect(screen.getByTestId('rule-incidents-total')).toHaveTextContent(`of ${TOTAL}`);
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});

describe('an imported Sigma rule', () => {
  it('shows its origin, author and licence, and its YAML read-only and highlighted', async () => {
    open('/rule/6');
    const yaml = await screen.findByTestId('rule-yaml', {}, { timeout: 15_000 });
    expect(yaml.textContent).toBe(SIGMA_YAML);
    expect(yaml).toHaveAccessibleName('The Sigma rule in YAML, read-only');
    expect(yaml.querySelector('.hljs-attr')).toHaveTextContent('title');
    expect(yaml.querySelector('.hljs-comment')).toHaveTextContent('# tune first');
    expect(yaml.querySelector('textarea, [contenteditable="true"]')).toBeNull();
    const origin = screen.getByTestId('rule-origin');
    expect(origin).toHaveTextContent('Sigma rule (SigmaHQ)');
    expect(origin).toHaveTextContent('Jane Doe');
    expect(origin).toHaveTextContent('Administrators');
    expect(origin).toHaveTextContent('2025-03-04');
    const licence = screen.getByTestId('rule-licence');
    expect(licence).toHaveTextContent('by Jane Doe, used under the Detection Rule License (DRL) 1.1');
    expect(screen.getByRole('link', { name: 'Detection Rule License (DRL) 1.1' })).toHaveAttribute(
      'href',
      'https://github.com/SigmaHQ/Detection-Rule-License',
    );
    // the Russian caption is not translated yet: the English one stands in
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Encoded PowerShell');
  });

  it('shows neither origin nor YAML for a provider rule', async () => {
    open('/rule/5');
    await screen.findByTestId('rule-description', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('rule-yaml')).not.toBeInTheDocument();
    expect(screen.queryByTestId('rule-origin')).not.toBeInTheDocument();
  });
});
