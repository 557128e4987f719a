import type { Rule, RuleCounters, RuleCoverage } from '@soc/contracts';
import { RULES_PAGE_SIZE } from '@soc/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../../shared/api/authStore.ts';
import {
  callsTo,
  holdFirst,
  mockFetch,
  type MockRequest,
  type MockResponse,
  type MockRoutes,
} from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { makeRule } from '../test/ruleFixtures.ts';

const RULES = 'GET /api/v0/soc/rules/';

const rule = (id: number, overrides: Partial<Rule> = {}): Rule =>
  makeRule(id, {
    description_eng: id === 1 ? 'Detects things.' : '',
    category: ['Malware', 'Anomalous behaviour of privileged accounts', 'Phishing', 'Ransomware'],
    mitre_cov: id === 1 ? { execution: ['T1059.001'] } : {},
    mitre_tactic: id === 1 ? ['execution'] : [],
    mitre_technique: id === 1 ? ['T1059', 'T1059.001'] : [],
    sensor_tuples: [{ sensor: 'Sysmon', sensor_module: 'Process', sensor_type: 'EDR' }],
    ...overrides,
  });

const counters: RuleCounters = {
  count: 2,
  count_last_month: 1,
  count_is_requested: 0,
  mitre_coverage_percent: 12.5,
  mitre_coverage_by_platform: { Windows: 20 },
  mitre_total_techniques_by_platforms: { Windows: 10 },
};

const technique = (id: string, count: number, subs: string[] = []) => ({
  technique_id: id,
  name: `Name ${id}`,
  fullName: `Name ${id}`,
  url: '',
  tactics: ['execution'],
  sub_techniques: subs,
  platforms: ['Windows'],
  count,
});
const coverage: RuleCoverage = {
  attack_loaded: true,
  tactics: [{ name: 'Execution', short_name: 'execution', is_hidden: false }],
  techniques: [technique('T1059', 18, ['T1059.001']), technique('T1059.001', 14), technique('T1106', 0)],
};

/** A rule list endpoint over `total` rules (ids 1…total), paged by the request's `page`. */
const pagedRules =
  (total: number) =>
  (request: MockRequest): MockResponse => {
    const page = Number(request.url.searchParams.get('page') ?? 1);
    const from = (page - 1) * RULES_PAGE_SIZE;
    const count = Math.max(0, Math.min(RULES_PAGE_SIZE, total - from));
    const results = Array.from({ length: count }, (_, index) => rule(from + index + 1));
    const next = from + count < total ? `http://localhost/api/v0/soc/rules/?page=${page + 1}` : null;
    return { body: { total, next, previous: null, results } };
  };

function open(path = '/docs/rules', routes: MockRoutes = {}) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      [RULES]: { body: { total: 2, next: null, previous: null, results: [rule(1), rule(2)] } },
      'GET /api/v0/soc/rules/analytics_counters/': { body: counters },
      'GET /api/v0/soc/rules/coverage/': { body: coverage },
      'GET /api/v0/soc/rules/services/': { body: { results: ['Vision'] } },
      'GET /api/v0/soc/rules/techniques/T1059/': {
        body: { ...coverage.techniques[0], description: 'Adversaries…' },
      },
      ...routes,
    }),
  );
  const app = renderApp(path);
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...app, user, fetchMock };
}

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? 96 : 0;
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'rules-list' ? 600 : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('rules view', () => {
  it('selects the first rule, shows the counters and the card limits', async () => {
    open();
    const panel = await screen.findByTestId('rule-side-panel', {}, { timeout: 10_000 });
    expect(panel).toHaveAttribute('data-id', '1');
    expect(within(panel).getByTestId('rule-description')).toHaveTextContent('Detects things.');
    expect(within(panel).queryByTestId('rule-section-links')).not.toBeInTheDocument();
    expect(within(panel).getByTestId('rule-launch')).toHaveAttribute('href', '/rule/1');
    expect(within(panel).getByTestId('rule-launch')).toHaveAttribute('target', '_blank');
    expect(await screen.findByTestId('rule-counter-count')).toHaveTextContent('2');
    const card = screen.getAllByTestId('rule-card')[0]!;
    expect(within(card).getAllByTestId('rule-card-category')).toHaveLength(3);
    expect(within(card).getByTestId('rule-card-category-more')).toHaveTextContent('+1');
    expect(within(card).getByText('Anomalous behaviour…')).toBeInTheDocument();
  });

  it('loads the second page through the shared feed: its loading row, its error row and retry', async () => {
    const held = holdFirst(pagedRules(30), (request) => request.url.searchParams.get('page') === '2');
    const { fetchMock, user } = open('/docs/rules', { [RULES]: held.handler });
    await screen.findByTestId('rule-side-panel');
    expect(screen.getByTestId('rules-total')).toHaveTextContent('1-20 of 30');
    const list = screen.getByTestId('rules-list');
    act(() => {
      list.scrollTop = 25 * 96;
      fireEvent.scroll(list);
    });
    expect(await screen.findByTestId('rules-list-footer')).toHaveTextContent('Loading more rules…');
    expect(list).toHaveAttribute('aria-busy', 'true');

    held.release({ status: 500, body: { detail: 'Busy' } });
    await waitFor(() =>
      expect(screen.getByTestId('rules-list-footer')).toHaveTextContent('Could not load more rules'),
    );
    await user.click(screen.getByTestId('rules-list-retry'));
    await waitFor(() => expect(screen.getByTestId('rules-total')).toHaveTextContent('1-30 of 30'));
    expect(screen.queryByTestId('rules-list-footer')).not.toBeInTheDocument();
    const pages = callsTo(fetchMock, RULES).map((call) => call.url.searchParams.get('page'));
    expect(pages).toEqual(['1', '2', '2']);
  });

  it('toggles the sort between DESC and ASC', async () => {
    const { user, fetchMock, router } = open();
    await screen.findByTestId('rule-side-panel');
    expect(screen.getByTestId('rules-sort')).toHaveAttribute('data-ordering', 'DESC');
    await user.click(screen.getByTestId('rules-sort'));
    await waitFor(() => expect(router.state.location.search).toBe('?ordering=created'));
    await waitFor(() =>
      expect(callsTo(fetchMock, RULES).at(-1)?.url.searchParams.get('ordering')).toBe('created'),
    );
    expect(screen.getByTestId('rules-sort')).toHaveAttribute('data-ordering', 'ASC');
  });

  it('shows the filter bar when filters exist, and toggling it off resets them', async () => {
    const { user, router } = open('/docs/rules?severity__in=High&search=dns');
    expect(await screen.findByTestId('rules-filter-bar')).toBeInTheDocument();
    await user.click(screen.getByTestId('rules-filter-toggle'));
    await waitFor(() => expect(router.state.location.search).toBe('?search=dns'));
    expect(screen.queryByTestId('rules-filter-bar')).not.toBeInTheDocument();
  });

  it('MITRE mode colours cells by band, opens sub-techniques and selects a technique', async () => {
    const { user } = open();
    await screen.findByTestId('rule-side-panel');
    await user.click(within(screen.getByTestId('rules-mode')).getByText('MITRE'));
    const matrix = await screen.findByTestId('mitre-matrix');
    const cells = within(matrix).getAllByTestId('mitre-technique');
    expect(cells.map((cell) => [cell.dataset.id, cell.dataset.band])).toEqual([
      ['T1059', 'highest'],
      ['T1106', 'none'],
    ]);
    expect(within(matrix).queryByTestId('mitre-subtechnique')).not.toBeInTheDocument();
    await user.click(within(cells[0]!).getByTestId('mitre-technique-toggle'));
    expect(within(matrix).getByTestId('mitre-subtechnique')).toHaveAttribute('data-band', 'medium');
    await user.click(within(cells[0]!).getByRole('button', { pressed: false }));
    const detail = await screen.findByTestId('mitre-detail');
    expect(detail).toHaveAttribute('data-id', 'T1059');
    expect(await within(detail).findByTestId('mitre-detail-description')).toHaveTextContent('Adversaries…');
  });
});
