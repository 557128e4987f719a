import type { Misconfig, MisconfigDetail, MisconfigGroup } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const LIST = 'GET /api/v0/soc/misconfigs/';
const GROUPS = 'GET /api/v0/soc/misconfigs/groups/';
const system = { id: 1, is_id: 'IS-0001', full_name: 'North Wind' };
const page = <T,>(results: T[], total = results.length) => ({ total, next: null, previous: null, results });

const makeMisconfig = (id: number, overrides: Partial<Misconfig> = {}): Misconfig => ({
  id,
  title: `Finding ${id}`,
  description: 'SMBv1 is enabled.',
  recommendation: 'Disable SMBv1 through group policy.',
  severity: 'high',
  status: 'open',
  affected_assets: ['dc-01', 'fs-02'],
  system,
  created: Date.UTC(2026, 10, 1),
  updated: Date.UTC(2026, 10, 2),
  incidents: [{ key: 10234, summary: 'SMBv1 on dc-01' }],
  status_comment: '',
  status_changed_by: null,
  status_changed_at: null,
  available_actions: ['fix', 'accept_risk'],
  ...overrides,
});
const makeGroup = (title: string, overrides: Partial<MisconfigGroup> = {}): MisconfigGroup => ({
  title,
  severity: 'high',
  total: 1,
  open: 1,
  accepted_risk: 0,
  fixed: 0,
  assets: 2,
  asset_sample: ['dc-01', 'fs-02'],
  updated: Date.UTC(2026, 10, 2),
  ...overrides,
});
const detailOf = (m: Misconfig, history: MisconfigDetail['history'] = []): MisconfigDetail => ({
  ...m,
  history,
});

/** The first screen of a test waits for the page's lazy chunk, which is slow on a busy machine. */
const FIRST_PAINT = { timeout: 15_000 };

function open(path: string, routes: MockRoutes) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(
    baseRoutes({ 'GET /api/v0/soc/systems/': { body: page([system]) }, ...routes }),
  );
  return { ...renderApp(path), fetchMock };
}

beforeEach(() => {
  window.localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? 96 : 0;
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'misconfigs-list' ? 600 : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('security recommendations', () => {
  it('lists the groups with the URL filters, opens one, its finding in the panel, and marks it fixed', async () => {
    let current = makeMisconfig(5, { title: 'SMBv1 enabled' });
    const { user, fetchMock } = open('/misconfigs?status__in=open&colour=red', {
      [GROUPS]: {
        body: page([
          makeGroup('Finding 4', { severity: 'critical' }),
          makeGroup('SMBv1 enabled', { total: 2, open: 2 }),
        ]),
      },
      [LIST]: {
        body: page([makeMisconfig(6, { title: 'SMBv1 enabled', affected_assets: ['ws-7'] }), current], 2),
      },
      'GET /api/v0/soc/misconfigs/5/': () => ({ body: detailOf(current) }),
      'POST /api/v0/soc/misconfigs/5/fix/': (request) => {
        current = makeMisconfig(5, {
          title: 'SMBv1 enabled',
          status: 'fixed',
          status_comment: (request.body as { comment: string }).comment,
          available_actions: ['reopen'],
        });
        return {
          body: detailOf(current, [
            {
              action: 'fix',
              from: 'open',
              to: 'fixed',
              comment: current.status_comment,
              user: 'Ivan Ivanov',
              at: 1,
            },
          ]),
        };
      },
    });
    const groups = await screen.findAllByTestId('misconfig-group', {}, FIRST_PAINT);
    expect(groups.map((g) => g.dataset.title)).toEqual(['Finding 4', 'SMBv1 enabled']);
    expect(screen.getByTestId('misconfigs-count')).toHaveTextContent('1-2 of 2 recommendations');
    // an unknown parameter in the URL never reaches the server; the groups have one order
    const query = callsTo(fetchMock, GROUPS)[0]!.url.searchParams;
    expect(query.get('status__in')).toBe('open');
    expect(query.get('colour')).toBeNull();
    expect(query.get('ordering')).toBeNull();
    expect(callsTo(fetchMock, LIST)).toHaveLength(0);

    // a group opens to its findings: the list filtered by the same filters and its title
    await user.click(within(groups[1]!).getByTestId('misconfig-group-toggle'));
    const cards = await within(groups[1]!).findAllByTestId('misconfig-card');
    expect(cards).toHaveLength(2);
    const items = callsTo(fetchMock, LIST)[0]!.url.searchParams;
    expect(items.get('title')).toBe('SMBv1 enabled');
    expect(items.get('status__in')).toBe('open');
    expect(items.get('ordering')).toBe('-severity');

    await user.click(within(cards[1]!).getByTestId('misconfig-title'));
    const panel = await screen.findByTestId('misconfig-panel');
    expect(await within(panel).findByTestId('misconfig-recommendation')).toHaveTextContent('Disable SMBv1');
    expect(within(panel).getByTestId('misconfig-incident')).toHaveAttribute('href', '/inc/10234');

    await user.click(within(panel).getByTestId('misconfig-action-fix'));
    const dialog = await screen.findByTestId('misconfig-action-dialog');
    await user.type(within(dialog).getByTestId('misconfig-action-comment'), 'Disabled on both hosts.');
    await user.click(within(dialog).getByTestId('misconfig-action-confirm'));
    await waitFor(() =>
      expect(within(panel).getByTestId('misconfig-status')).toHaveAttribute('data-status', 'fixed'),
    );
    expect(callsTo(fetchMock, 'POST /api/v0/soc/misconfigs/5/fix/')[0]!.body).toEqual({
      comment: 'Disabled on both hosts.',
    });
    expect(within(panel).getByTestId('misconfig-history')).toHaveTextContent('Ivan Ivanov: Open → Fixed');
    expect(within(panel).getByTestId('misconfig-action-reopen')).toBeInTheDocument();
    // the groups are asked again: their counts changed
    await waitFor(() => expect(callsTo(fetchMock, GROUPS).length).toBeGreaterThan(1));
  });

  it('shows a group’s status counts and its assets, and more of them than the sample', async () => {
    open('/misconfigs', {
      [GROUPS]: {
        body: page([
          makeGroup('SMBv1 enabled', {
            total: 4,
            open: 3,
            fixed: 1,
            assets: 6,
            asset_sample: ['h1', 'h2', 'h3', 'h4', 'h5'],
          }),
        ]),
      },
    });
    const group = await screen.findByTestId('misconfig-group', {}, FIRST_PAINT);
    expect(within(group).getByTestId('misconfig-group-counts')).toHaveTextContent('Open: 3 · Fixed: 1');
    expect(within(group).getByTestId('misconfig-group-assets')).toHaveTextContent(
      '6 assets: h1, h2, h3, h4, h5 and 1 more',
    );
  });

  it('requires a comment to accept a risk', async () => {
    const { user, fetchMock } = open('/misconfigs', {
      [GROUPS]: { body: page([makeGroup('Finding 5')]) },
      [LIST]: { body: page([makeMisconfig(5)]) },
      'GET /api/v0/soc/misconfigs/5/': { body: detailOf(makeMisconfig(5)) },
    });
    await user.click(
      within(await screen.findByTestId('misconfig-group', {}, FIRST_PAINT)).getByTestId(
        'misconfig-group-title',
      ),
    );
    await user.click(within(await screen.findByTestId('misconfig-card')).getByTestId('misconfig-title'));
    await user.click(await screen.findByTestId('misconfig-action-accept_risk'));
    const dialog = await screen.findByTestId('misconfig-action-dialog');
    await user.click(within(dialog).getByTestId('misconfig-action-confirm'));
    expect(await within(dialog).findByText('Enter a comment')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/v0/soc/misconfigs/5/accept_risk/')).toHaveLength(0);
  });

  it('says what was searched when nothing is found, and clears the search and filters', async () => {
    const { user, fetchMock } = open('/misconfigs?search=kerberos&status__in=fixed', {
      [GROUPS]: (request) => ({
        body: page(request.url.searchParams.has('search') ? [] : [makeGroup('Finding 1')]),
      }),
    });
    const empty = await screen.findByTestId('misconfigs-empty', {}, FIRST_PAINT);
    expect(empty).toHaveTextContent('Nothing found for “kerberos” with the filter in use.');
    await user.click(within(empty).getByTestId('misconfigs-empty-clear'));
    await screen.findByTestId('misconfig-group');
    const last = callsTo(fetchMock, GROUPS).at(-1)!.url.searchParams;
    expect([...last.keys()].filter((key) => key !== 'page' && key !== 'page_size')).toEqual([]);
  });

  it("says 'No data' when nothing matches", async () => {
    open('/misconfigs', { [GROUPS]: { body: page([]) } });
    expect(await screen.findByTestId('misconfigs-empty', {}, FIRST_PAINT)).toHaveTextContent('No data');
  });
});
