import type { MailQuarantineDetail, MailQuarantineItem } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser, staffUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { stubPhoneViewport } from '../../../test/viewport.ts';

const LIST = 'GET /api/v0/analyst/mail_quarantine/';
const DETAIL = 'GET /api/v0/analyst/mail_quarantine/7/';
const RELEASE = 'POST /api/v0/analyst/mail_quarantine/7/release/';
const DELETE = 'DELETE /api/v0/analyst/mail_quarantine/7/';
const FIRST_PAINT = { timeout: 15_000 };

const page = <T,>(results: T[], total = results.length) => ({
  total,
  total_exact: true,
  next: null,
  previous: null,
  results,
});

const makeMail = (id: number, overrides: Partial<MailQuarantineItem> = {}): MailQuarantineItem => ({
  id,
  incident: 10001,
  system: 'IS-0001',
  sender: `mallory${id}@evil.example`,
  sender_name: 'Mallory',
  subject: `Re: incident ${id}`,
  reason: 'unverified_sender',
  sender_verified: false,
  received: Date.UTC(2026, 11, 4, 8, 0),
  attachments: [],
  ...overrides,
});

const XSS = '<p>Hello</p><img src=x onerror="window.__pwned=1">\nSecond line';
const detail: MailQuarantineDetail = { ...makeMail(7, { attachments: ['invoice.pdf'] }), body: XSS };

function open(path: string, routes: MockRoutes = {}, user = staffUser) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(
    baseRoutes({
      'GET /api/v0/auth/user/': { body: user },
      [DETAIL]: { body: detail },
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

describe('mail quarantine', () => {
  it('lists the quarantined mail with its reasons, incidents and total', async () => {
    const { fetchMock } = open('/soc/mail', {
      [LIST]: {
        body: page(
          [
            makeMail(7),
            makeMail(8, { incident: 10002, system: 'IS-0002', reason: 'unverified_national_centre' }),
          ],
          2,
        ),
      },
    });
    const rows = await screen.findAllByTestId('soc-mail-row', {}, FIRST_PAINT);
    expect(rows).toHaveLength(2);
    expect(screen.getByTestId('soc-mail-total')).toHaveTextContent('2 mails');
    await waitFor(() => expect(document.title).toMatch(/^Mail quarantine \| /));
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId('soc-mail-reason')).toHaveTextContent('Sender not authenticated');
    expect(within(second).getByTestId('soc-mail-reason')).toHaveTextContent('Unverified national centre');
    expect(within(second).getByTestId('soc-mail-incident')).toHaveAttribute('href', '/inc/10002');
    expect(first).toHaveTextContent('mallory7@evil.example');
    expect(lastQuery(fetchMock, LIST)).toBe('?page=1&page_size=50');
  });

  it('marks the SOC submenu of the desktop header as the current section', async () => {
    open('/soc/mail', { [LIST]: { body: page([makeMail(7)]) } });
    await screen.findAllByTestId('soc-mail-row', {}, FIRST_PAINT);
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    // its entries (queue, quarantine) open on hover; the phone drawer's test lists them
    const soc = within(nav).getByRole('menuitem', { name: 'SOC' });
    expect(soc).toHaveAttribute('aria-haspopup', 'true');
    expect(soc.closest('li')).toHaveClass('ant-menu-submenu-selected');
  });

  it('puts the filters into the URL, storage and the request, dropping invalid ones', async () => {
    const { fetchMock, user, router } = open('/soc/mail?incident=abc&colour=red', {
      [LIST]: { body: page([makeMail(7)]) },
    });
    await screen.findAllByTestId('soc-mail-row', {}, FIRST_PAINT);
    expect(lastQuery(fetchMock, LIST)).toBe('?page=1&page_size=50');

    await user.type(screen.getByTestId('soc-mail-filter-incident'), '10001{Enter}');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toBe('?incident=10001&page=1&page_size=50'));
    expect(router.state.location.search).toBe('?incident=10001');

    await user.type(screen.getByTestId('soc-mail-sender-input'), ' mallory {Enter}');
    await waitFor(() =>
      expect(lastQuery(fetchMock, LIST)).toBe('?incident=10001&sender=mallory&page=1&page_size=50'),
    );
    expect(router.state.location.search).toBe('?incident=10001&sender=mallory');
    expect(JSON.parse(window.localStorage.getItem('filters') ?? '{}')).toMatchObject({
      'soc-mail': 'incident=10001&sender=mallory',
    });
  });

  it('pages through the mail, and a new filter starts again at the first page', async () => {
    const { fetchMock, user } = open('/soc/mail', {
      [LIST]: {
        body: page(
          Array.from({ length: 50 }, (_, index) => makeMail(index + 1)),
          120,
        ),
      },
    });
    await screen.findAllByTestId('soc-mail-row', {}, FIRST_PAINT);
    expect(screen.getByTestId('soc-mail-total')).toHaveTextContent('120 mails');
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toBe('?page=2&page_size=50'));
    await user.type(screen.getByTestId('soc-mail-sender-input'), 'mallory{Enter}');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toBe('?sender=mallory&page=1&page_size=50'));
  });

  it('opens the mail in a drawer on a phone and keeps the table inside its card', async () => {
    stubPhoneViewport();
    const { user } = open('/soc/mail', { [LIST]: { body: page([makeMail(7)]) } });
    await user.click(await screen.findByTestId('soc-mail-open', {}, FIRST_PAINT));
    const drawer = await screen.findByTestId('soc-mail-side');
    expect(await within(drawer).findByTestId('soc-mail-body')).toHaveTextContent('Second line');
    const table = screen.getByTestId('soc-mail-table');
    expect(table.querySelector('.ant-table-content')).toHaveStyle({ overflowX: 'auto' });
  });

  it('shows the mail’s body as text, never as markup', async () => {
    const { user } = open('/soc/mail', { [LIST]: { body: page([makeMail(7)]) } });
    await user.click(await screen.findByTestId('soc-mail-open', {}, FIRST_PAINT));
    const panel = await screen.findByTestId('soc-mail-detail');
    const body = await within(panel).findByTestId('soc-mail-body');
    expect(body.textContent).toBe(XSS);
    expect(body.querySelector('img, p')).toBeNull();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    expect(within(panel).getByTestId('soc-mail-detail-from')).toHaveTextContent(
      'Mallory <mallory7@evil.example>',
    );
    expect(within(panel).getByTestId('soc-mail-detail-subject')).toHaveTextContent('Re: incident 7');
    expect(within(panel).getByTestId('soc-mail-detail-incident')).toHaveAttribute('href', '/inc/10001');
    expect(panel).toHaveTextContent('invoice.pdf');
    expect(panel).toHaveTextContent('Domain not authenticated');
  });

  it('releases the mail into the incident’s chat after a confirmation and refreshes the list', async () => {
    let released = false;
    const { fetchMock, user } = open('/soc/mail', {
      [LIST]: () => ({ body: page(released ? [] : [makeMail(7)]) }),
      [RELEASE]: () => {
        released = true;
        return { status: 201, body: { comment_id: 55, incident: 10001 } };
      },
    });
    await user.click(await screen.findByTestId('soc-mail-open', {}, FIRST_PAINT));
    await user.click(await screen.findByTestId('soc-mail-release'));
    // nothing is sent before the confirmation
    const confirm = await screen.findByRole('tooltip');
    expect(confirm).toHaveTextContent('Post this mail in the chat of incident 10001?');
    expect(callsTo(fetchMock, RELEASE)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Release' }));

    expect(await screen.findByTestId('notification-success')).toHaveTextContent(
      'The mail is posted in the chat of incident 10001',
    );
    expect(callsTo(fetchMock, RELEASE)).toHaveLength(1);
    expect(await screen.findByTestId('soc-mail-empty')).toHaveTextContent('No mail waits in quarantine');
    expect(screen.queryByTestId('soc-mail-detail')).not.toBeInTheDocument();
  });

  it('deletes the mail after a confirmation, and shows the server’s refusal', async () => {
    let deleted = false;
    let refuse = true;
    const { fetchMock, user } = open('/soc/mail', {
      [LIST]: () => ({ body: page(deleted ? [] : [makeMail(7)]) }),
      [DELETE]: () => {
        if (refuse) return { status: 404, body: { detail: 'Already handled by another analyst.' } };
        deleted = true;
        return { status: 204 };
      },
    });
    await user.click(await screen.findByTestId('soc-mail-open', {}, FIRST_PAINT));
    await user.click(await screen.findByTestId('soc-mail-delete'));
    let confirm = await screen.findByRole('tooltip');
    expect(confirm).toHaveTextContent('Delete this mail for good?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    const error = await screen.findByTestId('notification-error');
    expect(error).toHaveTextContent('The mail was not deleted');
    expect(error).toHaveTextContent('Already handled by another analyst.');
    expect(screen.getByTestId('soc-mail-detail')).toBeInTheDocument();

    refuse = false;
    const listCalls = callsTo(fetchMock, LIST).length;
    await user.click(screen.getByTestId('soc-mail-delete'));
    await waitFor(() => expect(screen.getAllByRole('tooltip').at(-1)).toBeVisible());
    confirm = screen.getAllByRole('tooltip').at(-1)!;
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The mail is deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, DELETE)).toHaveLength(2);
    await waitFor(() => expect(callsTo(fetchMock, LIST).length).toBeGreaterThan(listCalls));
    expect(await screen.findByTestId('soc-mail-empty')).toBeInTheDocument();
  });

  it('shows an error with a retry, and an empty state', async () => {
    let fail = true;
    const { user } = open('/soc/mail', {
      [LIST]: () => (fail ? { status: 500, body: { detail: 'boom' } } : { body: page([]) }),
    });
    const error = await screen.findByTestId('soc-mail-error', {}, FIRST_PAINT);
    expect(error).toHaveTextContent('Fetching the quarantined mail: error');
    fail = false;
    await user.click(within(error).getByTestId('soc-mail-retry'));
    expect(await screen.findByTestId('soc-mail-empty')).toHaveTextContent('No mail waits in quarantine');
  });

  it('tells a customer the page is not available, without the SOC menu or any analyst call', async () => {
    const { fetchMock } = open('/soc/mail', {}, currentUser);
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
    open('/soc/mail', { [LIST]: { body: page([makeMail(7, { reason: 'not_a_user' })], 5) } });
    expect(await screen.findByRole('heading', { level: 1 }, FIRST_PAINT)).toHaveTextContent('Карантин почты');
    const row = await screen.findByTestId('soc-mail-row');
    expect(within(row).getByTestId('soc-mail-reason')).toHaveTextContent('Не пользователь системы');
    expect(screen.getByTestId('soc-mail-total')).toHaveTextContent('5 писем');
  });
});
