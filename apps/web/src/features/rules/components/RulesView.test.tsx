import type { Rule, RuleCounters, RuleCoverage } from '@soc/contracts';
import { RULES_PAGE_SIZE } from '@soc/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
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

const technique = (id: string, count: number, subs: string[] = [], tactics = ['execution']) => ({
  technique_id: id,
  name: `Name ${id}`,
  fullName: `Name ${id}`,
  url: '',
  tactics,
  sub_techniques: subs,
  platforms: ['Windows'],
  count,
});
const coverage: RuleCoverage = {
  attack_loaded: true,
  attack_version: '18.1',
  tactics: [
    { name: 'Execution', short_name: 'execution', is_hidden: false },
    { name: 'Credential Access', short_name: 'credential-access', is_hidden: false },
  ],
  techniques: [
    technique('T1059', 18, ['T1059.001', 'T1059.002']),
    technique('T1059.001', 14),
    technique('T1059.002', 0),
    technique('T1106', 0),
    { ...technique('T1110', 7, [], ['credential-access']), name: 'Brute Force' },
  ],
};
/** MITRE's Markdown of a description and the server's rendering of it. */
const description =
  'Adversaries may guess passwords of [Valid Accounts](https://attack.mitre.org/techniques/T1078).';
const renderedDescription =
  '<p>Adversaries may guess passwords of <a href="https://attack.mitre.org/techniques/T1078" rel="noopener noreferrer nofollow" target="_blank">Valid Accounts</a>.</p>';

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
        body: { ...coverage.techniques[0], description, rendered_description: renderedDescription },
      },
      ...routes,
    }),
  );
  const app = renderApp(path);
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...app, user, fetchMock };
}

/** Opens Rules → MITRE and waits for the matrix. */
async function openMitre() {
  const app = open();
  await screen.findByTestId('rule-side-panel');
  await app.user.click(within(screen.getByTestId('rules-mode')).getByText('MITRE'));
  return { ...app, matrix: await screen.findByTestId('mitre-matrix') };
}

/** The column of a tactic. */
const tacticColumn = (matrix: HTMLElement, name: string) =>
  within(matrix)
    .getAllByTestId('mitre-tactic')
    .find((column) => column.dataset.tactic === name)!;

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
    const { user, matrix } = await openMitre();
    const cells = within(matrix).getAllByTestId('mitre-technique');
    expect(cells.map((cell) => [cell.dataset.id, cell.dataset.band])).toEqual([
      ['T1059', 'highest'],
      ['T1106', 'none'],
      ['T1110', 'low'],
    ]);
    expect(within(matrix).queryByTestId('mitre-subtechnique')).not.toBeInTheDocument();
    await user.click(within(cells[0]!).getByTestId('mitre-technique-toggle'));
    expect(within(matrix).getAllByTestId('mitre-subtechnique')[0]).toHaveAttribute('data-band', 'medium');
    await user.click(within(cells[0]!).getByRole('button', { pressed: false }));
    const detail = await screen.findByTestId('mitre-detail');
    expect(detail).toHaveAttribute('data-id', 'T1059');
    expect(await within(detail).findByTestId('mitre-detail-description')).toHaveTextContent('Adversaries');
  });

  it('MITRE mode compares with a Navigator layer: its techniques without a rule are gaps', async () => {
    const { user, matrix } = await openMitre();
    // the upload renders a new input after each file: find it each time
    const input = () =>
      screen.getByTestId('mitre-layer-bar').querySelector<HTMLInputElement>('input[type="file"]')!;
    const layerFile = (content: string) => new File([content], 'layer.json', { type: 'application/json' });
    const layer = {
      name: 'APT test',
      versions: { navigator: '5.2.0', layer: '4.5' },
      domain: 'enterprise-attack',
      techniques: [
        { techniqueID: 'T1106', score: 1 },
        { techniqueID: 'T1110', score: 2 },
        { techniqueID: 'T1059.002' },
        { techniqueID: 'T1003', enabled: false },
        { techniqueID: 'T9999', score: 1 },
      ],
    };
    await user.upload(input(), layerFile(JSON.stringify(layer)));
    const overlay = await screen.findByTestId('mitre-layer-overlay');
    expect(overlay).toHaveAttribute('data-gaps', '2');
    expect(overlay).toHaveTextContent(
      'Layer “APT test”: 4 techniques, 2 without a rule for the current filters',
    );
    expect(
      within(overlay)
        .getAllByTestId('mitre-layer-gap')
        .map((tag) => tag.textContent),
    ).toEqual(['T1059.002', 'T1106']);
    expect(within(overlay).getByTestId('mitre-layer-unknown')).toHaveTextContent('T9999');
    const cell = (id: string) =>
      within(matrix)
        .getAllByTestId(/mitre-(sub)?technique$/)
        .find((c) => c.dataset.id === id)!;
    expect(cell('T1106')).toHaveAttribute('data-gap', 'true');
    expect(cell('T1110')).not.toHaveAttribute('data-gap');
    // a gap among the sub-techniques marks the closed technique, then the sub-technique itself
    expect(cell('T1059')).toHaveAttribute('data-gap-subs', 'true');
    await user.click(within(cell('T1059')).getByTestId('mitre-technique-toggle'));
    expect(cell('T1059.002')).toHaveAttribute('data-gap', 'true');
    expect(screen.getByTestId('mitre-legend-gap')).toBeInTheDocument();

    await user.click(within(overlay).getByTestId('mitre-layer-clear'));
    expect(screen.queryByTestId('mitre-layer-overlay')).not.toBeInTheDocument();
    expect(cell('T1106')).not.toHaveAttribute('data-gap');

    // a file that is not a layer is refused with the reason
    await user.upload(
      input(),
      layerFile(JSON.stringify({ name: 'x', domain: 'enterprise-attack', techniques: 3 })),
    );
    const error = await screen.findByTestId('notification-error');
    expect(error).toHaveTextContent('Could not read the layer');
    expect(error).toHaveTextContent('The file is not an ATT&CK Navigator layer:');
    expect(screen.queryByTestId('mitre-layer-overlay')).not.toBeInTheDocument();
  });

  it('MITRE mode puts counts inside the cells and counts techniques with plurals', async () => {
    const { matrix } = await openMitre();
    const bruteForce = within(matrix)
      .getAllByTestId('mitre-technique')
      .find((cell) => cell.dataset.id === 'T1110')!;
    // "Brute Force 7" on the cell's button, its id beneath; the count in words in its title
    const button = within(bruteForce).getByRole('button', { pressed: false });
    expect(button).toHaveTextContent(/^Brute Force 7T1110$/);
    expect(button).toHaveAttribute('title', 'T1110 Brute Force: 7 rules');
    const tactic = (name: string) => tacticColumn(matrix, name);
    expect(tactic('execution')).toHaveTextContent('2 techniques');
    expect(tactic('credential-access')).toHaveTextContent('1 technique');
    expect(tactic('credential-access')).not.toHaveTextContent('1 techniques');
  });

  it('MITRE mode opens a technique into an extra column of sub-techniques beside it', async () => {
    const { user, matrix } = await openMitre();
    const execution = tacticColumn(matrix, 'execution');
    const parent = within(execution).getAllByTestId('mitre-technique')[0]!;
    expect(execution).toHaveAttribute('data-wide', 'false');
    await user.click(within(parent).getByTestId('mitre-technique-toggle'));
    // the tactic gains a column: the technique on the left spans the rows of its sub-techniques
    expect(execution).toHaveAttribute('data-wide', 'true');
    expect(parent.style.gridColumn).toBe('1');
    expect(parent.style.gridRow).toBe('2 / span 2');
    const subs = within(execution).getAllByTestId('mitre-subtechnique');
    expect(subs.map((sub) => [sub.dataset.id, sub.style.gridColumn, sub.style.gridRow])).toEqual([
      ['T1059.001', '2', '2'],
      ['T1059.002', '2', '3'],
    ]);
    // the next technique starts below them, across the tactic's width
    const next = within(execution).getAllByTestId('mitre-technique')[1]!;
    expect([next.dataset.id, next.style.gridColumn, next.style.gridRow]).toEqual([
      'T1106',
      '1 / -1',
      '4 / span 1',
    ]);
    await user.click(within(parent).getByTestId('mitre-technique-toggle'));
    expect(execution).toHaveAttribute('data-wide', 'false');
    expect(within(execution).queryByTestId('mitre-subtechnique')).not.toBeInTheDocument();
  });

  it('MITRE mode counts in Russian plural forms', async () => {
    await i18n.changeLanguage('ru');
    expect(i18n.t('rules.mitre.techniques', { count: 1 })).toBe('1 техника');
    expect(i18n.t('rules.mitre.techniques', { count: 2 })).toBe('2 техники');
    expect(i18n.t('rules.mitre.techniques', { count: 5 })).toBe('5 техник');
    expect(i18n.t('rules.mitre.techniques', { count: 21 })).toBe('21 техника');
    expect(i18n.t('rules.mitre.rulesCount', { count: 7 })).toBe('7 правил');
    expect(i18n.t('dashboard.mitre.incidents', { count: 3 })).toBe('3 инцидента');
    const { matrix } = await openMitre();
    expect(
      within(matrix)
        .getAllByTestId('mitre-tactic')
        .map((column) => column.textContent),
    ).toEqual([expect.stringContaining('2 техники'), expect.stringContaining('1 техника')]);
  });

  it('MITRE mode shows a technique description rendered from Markdown, its links safe', async () => {
    const { user, matrix } = await openMitre();
    await user.click(
      within(within(matrix).getAllByTestId('mitre-technique')[0]!).getByRole('button', { pressed: false }),
    );
    const text = await within(await screen.findByTestId('mitre-detail')).findByTestId(
      'mitre-detail-description',
    );
    expect(text).not.toHaveTextContent('[Valid Accounts]');
    const link = within(text).getByRole('link', { name: 'Valid Accounts' });
    expect(link).toHaveAttribute('href', 'https://attack.mitre.org/techniques/T1078');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    // told apart from the text by more than its colour
    expect(link.style.textDecoration).toBe('underline');
  });
});

describe('an imported Sigma rule in the rules area', () => {
  it('shows its author and licence in the side panel, in Russian too', async () => {
    const sigma = rule(1, {
      source: 'sigma',
      author: 'Jane Doe',
      source_status: 'stable',
      licence: {
        name: 'Detection Rule License (DRL) 1.1',
        url: 'https://github.com/SigmaHQ/Detection-Rule-License',
      },
    });
    open('/docs/rules', { [RULES]: { body: { total: 1, next: null, previous: null, results: [sigma] } } });
    const panel = await screen.findByTestId('rule-side-panel', {}, { timeout: 15_000 });
    const origin = await within(panel).findByTestId('rule-origin');
    expect(origin).toHaveTextContent('Jane Doe');
    expect(origin).toHaveTextContent('stable');
    expect(within(panel).getByTestId('rule-licence')).toHaveTextContent(
      'Imported from the public Sigma rules by Jane Doe, used under the Detection Rule License (DRL) 1.1',
    );
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() =>
      expect(within(panel).getByTestId('rule-licence')).toHaveTextContent(
        'Импортировано из открытых правил Sigma, автор: Jane Doe; используется по лицензии Detection Rule License (DRL) 1.1',
      ),
    );
    await act(() => i18n.changeLanguage('en'));
  });
});
