import type { QueueItem } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser, staffUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { stubPhoneViewport } from '../../../test/viewport.ts';

const LIST = 'GET /api/v0/analyst/queue/';
const COUNTS = 'GET /api/v0/analyst/queue/counts/';
const BULK = 'POST /api/v0/analyst/queue/bulk/';
const north = { id: 1, is_id: 'IS-0001', full_name: 'North Wind' };
const south = { id: 2, is_id: 'IS-0002', full_name: 'South Star' };
const page = <T,>(results: T[], total = results.length) => ({
  total,
  total_exact: true,
  next: null,
  previous: null,
  results,
});
const FIRST_PAINT = { timeout: 15_000 };

const makeItem = (key: number, overrides: Partial<QueueItem> = {}): QueueItem => ({
  key,
  summary: `Suspicious logon ${key}`,
  priority: 'high',
  status: 'waiting_for_support',
  system: north,
  category_ref: [],
  created: Date.UTC(2026, 11, 4, 8, 0),
  updated: Date.UTC(2026, 11, 4, 9, 0),
  sla: Date.UTC(2026, 11, 4, 10, 0),
  sla_state: 'ok',
  notified: null,
  soc_assignee: null,
  customer_comment_at: null,
  reasons: ['waiting_for_support', 'unassigned'],
  ...overrides,
});

const counts = {
  results: [
    { system: north, count: 2 },
    { system: south, count: 1 },
  ],
  total: 3,
};

function open(path: string, routes: MockRoutes = {}, user = staffUser) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(
    baseRoutes({
      'GET /api/v0/auth/user/': { body: user },
      'GET /api/v0/soc/systems/': { body: page([north, south]) },
      'GET /api/v0/soc/filters/': {
        body: {
          systems: [north, south],
          issue_types: [],
          categories: [],
          resolutions: [],
          priorities: [],
          statuses: [],
          base_services: [],
          users: [],
        },
      },
      'GET /api/v0/analyst/staff/': {
        body: page([{ id: staffUser.id, username: 'petrova', full_name: 'Anna Petrova' }]),
      },
      [COUNTS]: { body: counts },
      ...routes,
    }),
  );
  return { ...renderApp(path), fetchMock };
}

type FetchMock = ReturnType<typeof mockFetch>;
const lastQuery = (fetchMock: FetchMock, key: string) => callsTo(fetchMock, key).at(-1)!.url.search;
const analystCalls = (fetchMock: FetchMock) =>
  fetchMock.mock.calls
    .map(([input]) => (input instanceof Request ? input.url : input instanceof URL ? input.href : input))
    .filter((url) => url.includes('/analyst/'));

beforeEach(() => window.localStorage.clear());
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('SOC queue', () => {
  it('shows staff the menu entry and the queue with its reasons, SLA states and assignees', async () => {
    const { fetchMock } = open('/soc/queue', {
      [LIST]: {
        body: page([
          makeItem(10001, { sla_state: 'breached', reasons: ['customer_comment', 'sla_breached'] }),
          makeItem(10002, {
            system: south,
            sla: null,
            soc_assignee: { id: 8, username: 'petrova', full_name: 'Anna Petrova' },
            reasons: ['reopened'],
          }),
        ]),
      },
    });
    const rows = await screen.findAllByTestId('soc-queue-row', {}, FIRST_PAINT);
    expect(rows).toHaveLength(2);
    expect(screen.getByTestId('soc-queue-total')).toHaveTextContent('1-2 of 2');
    await waitFor(() => expect(document.title).toMatch(/^SOC queue \| /));
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    // the staff area's entry is a submenu (its entries: the menu's own tests)
    expect(within(nav).getByText('SOC')).toBeInTheDocument();

    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId('soc-queue-key')).toHaveAttribute('href', '/inc/10001');
    expect(within(first).getByTestId('soc-queue-sla')).toHaveTextContent('Overdue');
    expect(
      within(first)
        .getAllByTestId('soc-queue-reason')
        .map((tag) => tag.textContent),
    ).toEqual(['Customer comment', 'SLA breached']);
    expect(first).toHaveTextContent('IS-0001');
    expect(first).toHaveTextContent('Unassigned');
    expect(second).toHaveTextContent('IS-0002');
    expect(second).toHaveTextContent('South Star');
    expect(second).toHaveTextContent('No deadline');
    expect(second).toHaveTextContent('Anna Petrova');
    expect(within(second).getByTestId('soc-queue-reason')).toHaveTextContent('Reopened');
    // the default sort is by SLA deadline, pages of 40
    expect(lastQuery(fetchMock, LIST)).toBe('?ordering=sla&limit=40&offset=0');
  });

  it('puts a filter change into the URL, storage and the request, dropping unknown values', async () => {
    const { fetchMock, user, router } = open('/soc/queue?priority__in=high,urgent&colour=red', {
      [LIST]: { body: page([makeItem(10001)]) },
    });
    await screen.findAllByTestId('soc-queue-row', {}, FIRST_PAINT);
    expect(lastQuery(fetchMock, LIST)).toBe('?priority__in=high&ordering=sla&limit=40&offset=0');

    await user.click(screen.getByTestId('soc-queue-filter-mine'));
    await waitFor(() =>
      expect(lastQuery(fetchMock, LIST)).toBe('?mine=true&priority__in=high&ordering=sla&limit=40&offset=0'),
    );
    // the URL keeps what the list can send
    expect(router.state.location.search).toBe('?mine=true&priority__in=high');
    expect(lastQuery(fetchMock, COUNTS)).toBe('?mine=true&priority__in=high');
    expect(JSON.parse(window.localStorage.getItem('filters') ?? '{}')).toMatchObject({
      'soc-queue': 'mine=true&priority__in=high',
    });
  });

  it('counts per tenant and filters by the tenant clicked', async () => {
    const { fetchMock, user, router } = open('/soc/queue', { [LIST]: { body: page([makeItem(10001)]) } });
    const chips = await screen.findAllByTestId('soc-queue-count', {}, FIRST_PAINT);
    expect(chips.map((chip) => chip.textContent)).toEqual(['IS-0001: 2', 'IS-0002: 1']);
    expect(screen.getByTestId('soc-queue-count-all')).toHaveTextContent('All tenants: 3');

    await user.click(chips[1]!);
    await waitFor(() => expect(router.state.location.search).toBe('?system__in=2'));
    await waitFor(() =>
      expect(lastQuery(fetchMock, LIST)).toBe('?system__in=2&ordering=sla&limit=40&offset=0'),
    );
    // the chips stay: the counts are asked without the tenant filter
    expect(callsTo(fetchMock, COUNTS).every((call) => !call.url.searchParams.has('system__in'))).toBe(true);
    await waitFor(() =>
      expect(screen.getAllByTestId('soc-queue-count')[1]).toHaveAttribute('aria-pressed', 'true'),
    );
  });

  it('assigns the selected incidents to me and tells why one was refused', async () => {
    const { fetchMock, user } = open('/soc/queue', {
      [LIST]: { body: page([makeItem(10001), makeItem(10002)]) },
      [BULK]: {
        body: {
          results: [
            { key: 10001, status: 200, incident_status: 'work_in_progress', errors: null },
            { key: 10002, status: 400, incident_status: null, errors: { detail: 'The incident is closed.' } },
          ],
        },
      },
    });
    await screen.findAllByTestId('soc-queue-row', {}, FIRST_PAINT);
    const listCalls = callsTo(fetchMock, LIST).length;
    await user.click(screen.getByRole('checkbox', { name: 'Select incident 10001' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select incident 10002' }));
    expect(screen.getByTestId('soc-queue-selected')).toHaveTextContent('2 incidents selected');
    await user.click(screen.getByTestId('soc-queue-bulk-assign-me'));

    const result = await screen.findByTestId('soc-queue-bulk-result');
    expect(callsTo(fetchMock, BULK)[0]!.body).toEqual({
      action: 'assign',
      soc_assignee: staffUser.id,
      keys: [10001, 10002],
    });
    expect(result).toHaveTextContent('1 of 2 incidents changed.');
    expect(within(result).getByTestId('soc-queue-bulk-refused')).toHaveTextContent(
      'Incident 10002: The incident is closed.',
    );
    await waitFor(() => expect(callsTo(fetchMock, LIST).length).toBeGreaterThan(listCalls));
    expect(screen.queryByTestId('soc-queue-bulk')).not.toBeInTheDocument();
  });

  it('requires a comment to complete the selected incidents and sends it', async () => {
    const { fetchMock, user } = open('/soc/queue', {
      [LIST]: { body: page([makeItem(10001)]) },
      [BULK]: {
        body: { results: [{ key: 10001, status: 200, incident_status: 'completed', errors: null }] },
      },
    });
    await screen.findAllByTestId('soc-queue-row', {}, FIRST_PAINT);
    await user.click(screen.getByRole('checkbox', { name: 'Select incident 10001' }));
    await user.click(screen.getByTestId('soc-queue-bulk-complete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Complete the selected incidents');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Write a comment')).toBeInTheDocument();
    expect(callsTo(fetchMock, BULK)).toHaveLength(0);

    await user.type(
      within(dialog).getByTestId('soc-queue-status-comment'),
      '  Resolved: **false positive**  ',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByTestId('soc-queue-bulk-result')).toHaveTextContent('1 of 1 incident changed.');
    expect(callsTo(fetchMock, BULK)[0]!.body).toEqual({
      action: 'status',
      status: 'completed',
      comment: 'Resolved: **false positive**',
      keys: [10001],
    });
  });

  it('moves a highlight with j and k, assigns it with a, opens it with Enter, and lists the keys on ?', async () => {
    const { fetchMock, user, router } = open('/soc/queue', {
      [LIST]: { body: page([makeItem(10001), makeItem(10002), makeItem(10003)]) },
      [BULK]: {
        body: { results: [{ key: 10002, status: 200, incident_status: 'work_in_progress', errors: null }] },
      },
      // the incident page that Enter opens stays loading (its own tests cover it): a failed card
      // would send it on to the list before the address is read
      'GET /api/v0/soc/incs/10002/': () => new Promise(() => undefined),
    });
    await screen.findAllByTestId('soc-queue-row', {}, FIRST_PAINT);
    const focused = () => document.querySelector('[data-testid="soc-queue-row"][data-focused="true"]');
    expect(focused()).toBeNull();
    await user.keyboard('j');
    expect(focused()).toHaveAttribute('data-key', '10001');
    await user.keyboard('jjk');
    expect(focused()).toHaveAttribute('data-key', '10002');

    await user.keyboard('a');
    expect(await screen.findByTestId('soc-queue-bulk-result')).toHaveTextContent('1 of 1 incident changed.');
    expect(callsTo(fetchMock, BULK)[0]!.body).toEqual({
      action: 'assign',
      soc_assignee: staffUser.id,
      keys: [10002],
    });

    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('soc-queue-shortcuts')).toHaveTextContent('Open the incident');
    // inside the dialog the queue's keys do nothing
    await user.keyboard('j');
    expect(focused()).toHaveAttribute('data-key', '10002');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/inc/10002'));
  });

  it('ignores the shortcuts while typing in a field', async () => {
    const { user } = open('/soc/queue', {
      [LIST]: { body: page([makeItem(10001), makeItem(10002)]) },
    });
    await screen.findAllByTestId('soc-queue-row', {}, FIRST_PAINT);
    await user.click(within(screen.getByTestId('soc-queue-filter-priority__in')).getByRole('combobox'));
    await user.keyboard('jj');
    expect(document.querySelector('[data-focused="true"]')).toBeNull();
  });

  it('says “more than” when the total is capped', async () => {
    open('/soc/queue', { [LIST]: { body: { ...page([makeItem(10001)], 10_000), total_exact: false } } });
    expect(await screen.findByTestId('soc-queue-total', {}, FIRST_PAINT)).toHaveTextContent(
      '1-1 of more than 10,000',
    );
  });

  it('puts the filters into the drawer on a phone and keeps the table inside its card', async () => {
    stubPhoneViewport();
    const { user } = open('/soc/queue', { [LIST]: { body: page([makeItem(10001)]) } });
    await screen.findByTestId('soc-queue-row', {}, FIRST_PAINT);
    expect(screen.queryByTestId('soc-queue-filter-mine')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('soc-queue-filter-toggle'));
    const drawer = await screen.findByTestId('soc-queue-filters');
    expect(within(drawer).getByTestId('soc-queue-filter-mine')).toBeInTheDocument();
    // the table scrolls sideways inside its own container, not the page
    const table = screen.getByTestId('soc-queue-table');
    expect(table.querySelector('.ant-table-content')).toHaveStyle({ overflowX: 'auto' });
  });

  it('says that nothing waits when the queue is empty', async () => {
    open('/soc/queue', { [LIST]: { body: page([]) } });
    expect(await screen.findByTestId('soc-queue-empty', {}, FIRST_PAINT)).toHaveTextContent(
      'Nothing waits for the SOC',
    );
  });

  it('shows an error with a retry that asks again', async () => {
    let fail = true;
    const { user } = open('/soc/queue', {
      [LIST]: () => (fail ? { status: 500, body: { detail: 'boom' } } : { body: page([makeItem(10001)]) }),
    });
    const error = await screen.findByTestId('soc-queue-error', {}, FIRST_PAINT);
    expect(error).toHaveTextContent('Fetching the queue: error');
    fail = false;
    await user.click(within(error).getByTestId('soc-queue-retry'));
    expect(await screen.findByTestId('soc-queue-row')).toBeInTheDocument();
  });

  it('tells a customer the page is not available, without the menu entry or any analyst call', async () => {
    const { fetchMock } = open('/soc/queue', {}, currentUser);
    expect(await screen.findByTestId('soc-not-available', {}, FIRST_PAINT)).toHaveTextContent(
      'This page is not available',
    );
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    expect(within(nav).queryByText('SOC')).not.toBeInTheDocument();
    expect(analystCalls(fetchMock)).toEqual([]);
  });

  it('speaks Russian', async () => {
    await i18n.changeLanguage('ru');
    open('/soc', { [LIST]: { body: page([makeItem(10001, { sla_state: 'near' })]) } });
    expect(await screen.findByRole('heading', { level: 1 }, FIRST_PAINT)).toHaveTextContent('Очередь SOC');
    const row = await screen.findByTestId('soc-queue-row');
    expect(within(row).getByTestId('soc-queue-sla')).toHaveTextContent('Меньше часа');
    expect(row).toHaveTextContent('Ждёт поддержку');
    expect(row).toHaveTextContent('Не назначен');
  });
});
