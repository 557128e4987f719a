import { screen, waitFor, within } from '@testing-library/react';
import type { InboxItem } from '@soc/contracts';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

/** A state on a busy 2-core machine (the whole suite beside the server's) can take seconds. */
const BUSY = { timeout: 15_000 };

const item = (id: number, fields: Partial<InboxItem> = {}): InboxItem => ({
  id,
  kind: 'comment',
  created: Date.UTC(2026, 11, 3, 9, 0),
  read: false,
  incident: { key: 4321, summary: 'Credential dumping on DC01' },
  status: null,
  report: null,
  task: null,
  ...fields,
});

const page = (results: InboxItem[]) => ({
  total: results.length,
  total_exact: true,
  next: null,
  previous: null,
  results,
});

describe('the notification bell', () => {
  it('shows "99+" above 99 unread and says the number to a screen reader', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(
      baseRoutes({ 'GET /api/v0/notifications/inbox/count/': { body: { unread: 150, unread_exact: true } } }),
    );
    renderApp('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, unread: 150' }, BUSY);
    expect(within(bell).getByText('99+')).toBeInTheDocument();
  });

  it('says "more than 10,000" past the server’s cap', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(
      baseRoutes({
        'GET /api/v0/notifications/inbox/count/': { body: { unread: 10000, unread_exact: false } },
      }),
    );
    renderApp('/dashboard');
    expect(
      await screen.findByRole('button', { name: 'Notifications, unread: more than 10,000' }, BUSY),
    ).toBeInTheDocument();
  });

  it('opens the panel, and a click on a line opens the incident and marks the line read', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    let unread = 2;
    const fetchMock = mockFetch(
      baseRoutes({
        'GET /api/v0/notifications/inbox/count/': () => ({ body: { unread, unread_exact: true } }),
        'GET /api/v0/notifications/inbox/': () => ({
          body: page([
            item(7),
            item(6, { kind: 'report_ready', incident: null, report: { id: 3, name: 'October' }, read: true }),
          ]),
        }),
        'POST /api/v0/notifications/inbox/7/read/': () => {
          unread = 1;
          return { body: { unread, unread_exact: true } };
        },
      }),
    );
    const { user, router } = renderApp('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, unread: 2' }, BUSY);
    await user.click(bell);
    const panel = await screen.findByTestId('inbox-panel', {}, BUSY);
    const lines = await within(panel).findAllByTestId('inbox-item', {}, BUSY);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toHaveTextContent('New comment on incident #4321');
    expect(lines[0]).toHaveTextContent('Credential dumping on DC01');
    expect(lines[0]).toHaveAttribute('data-read', 'false');
    expect(lines[1]).toHaveTextContent('Report ready');

    // every address the router went to: the incident page, which (with no card mocked here) may
    // already have sent the user back to the list when a busy machine gets to look
    const visited: string[] = [];
    const unsubscribe = router.subscribe((state) => visited.push(state.location.pathname));
    await user.click(lines[0]!);
    await waitFor(() => expect(visited).toContain('/inc/4321'), BUSY);
    unsubscribe();
    await waitFor(
      () => expect(callsTo(fetchMock, 'POST /api/v0/notifications/inbox/7/read/')).toHaveLength(1),
      BUSY,
    );
    expect(await screen.findByRole('button', { name: 'Notifications, unread: 1' }, BUSY)).toBeInTheDocument();
  });

  it('marks all read up to the newest line shown', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    const fetchMock = mockFetch(
      baseRoutes({
        'GET /api/v0/notifications/inbox/count/': { body: { unread: 1, unread_exact: true } },
        'GET /api/v0/notifications/inbox/': { body: page([item(9)]) },
        'POST /api/v0/notifications/inbox/read_all/': { body: { unread: 0, unread_exact: true } },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Notifications, unread: 1' }, BUSY));
    const panel = await screen.findByTestId('inbox-panel', {}, BUSY);
    await within(panel).findAllByTestId('inbox-item', {}, BUSY);
    await user.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(
      () => expect(callsTo(fetchMock, 'POST /api/v0/notifications/inbox/read_all/')).toHaveLength(1),
      BUSY,
    );
    expect(callsTo(fetchMock, 'POST /api/v0/notifications/inbox/read_all/')[0]!.body).toEqual({ up_to: 9 });
    expect(await screen.findByRole('button', { name: 'Notifications, unread: 0' }, BUSY)).toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes({ 'GET /api/v0/notifications/inbox/': { body: page([]) } }));
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Notifications, unread: 0' }, BUSY));
    expect(await screen.findByText('No notifications yet', {}, BUSY)).toBeInTheDocument();
  });
  it('shows the unread only when asked, says so when there are none, and remembers the choice', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    const fetchMock = mockFetch(
      baseRoutes({
        'GET /api/v0/notifications/inbox/count/': { body: { unread: 0, unread_exact: true } },
        'GET /api/v0/notifications/inbox/': ({ url }) => ({
          body: url.searchParams.get('unread') === 'true' ? page([]) : page([item(5, { read: true })]),
        }),
      }),
    );
    const { user, unmount } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Notifications, unread: 0' }, BUSY));
    const panel = await screen.findByTestId('inbox-panel', {}, BUSY);
    expect(await within(panel).findAllByTestId('inbox-item', {}, BUSY)).toHaveLength(1);
    const toggle = within(panel).getByRole('switch', { name: 'Unread only' });
    expect(toggle).not.toBeChecked();
    expect(callsTo(fetchMock, 'GET /api/v0/notifications/inbox/')[0]!.url.searchParams.has('unread')).toBe(
      false,
    );

    await user.click(toggle);
    expect(await within(panel).findByText('No unread notifications', {}, BUSY)).toBeInTheDocument();
    expect(within(panel).queryByTestId('inbox-item')).not.toBeInTheDocument();
    expect(
      callsTo(fetchMock, 'GET /api/v0/notifications/inbox/').at(-1)!.url.searchParams.get('unread'),
    ).toBe('true');
    unmount();

    // a new visit opens the panel as the user left it: its first request asks for the unread only
    const again = mockFetch(
      baseRoutes({
        'GET /api/v0/notifications/inbox/count/': { body: { unread: 0, unread_exact: true } },
        'GET /api/v0/notifications/inbox/': { body: page([]) },
      }),
    );
    const second = renderApp('/dashboard');
    await second.user.click(await screen.findByRole('button', { name: 'Notifications, unread: 0' }, BUSY));
    const reopened = await screen.findByTestId('inbox-panel', {}, BUSY);
    expect(within(reopened).getByRole('switch', { name: 'Unread only' })).toBeChecked();
    expect(await within(reopened).findByText('No unread notifications', {}, BUSY)).toBeInTheDocument();
    const calls = callsTo(again, 'GET /api/v0/notifications/inbox/');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.url.searchParams.get('unread') === 'true')).toBe(true);
  });
});
