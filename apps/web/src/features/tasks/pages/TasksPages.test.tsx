import { ATTACHMENT_MAX_BYTES, type Comment, type Task, type TaskDetail } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { installFetchBackedXhr } from '../../../test/fakeXhr.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const LIST = 'GET /api/v0/soc/tasks/';
const system = { id: 1, is_id: 'IS-0001', full_name: 'North Wind' };
const page = <T,>(results: T[], total = results.length) => ({ total, next: null, previous: null, results });

const makeTask = (id: number, overrides: Partial<Task> = {}): Task => ({
  id,
  type: 'question',
  subject: `Question ${id}`,
  status: 'open',
  priority: 'medium',
  system,
  author: 'Ivan Ivanov',
  author_id: currentUser.id,
  created: Date.UTC(2026, 10, 1),
  updated: Date.UTC(2026, 10, 2),
  messages_count: 0,
  last_from_soc: false,
  ...overrides,
});
const makeDetail = (overrides: Partial<TaskDetail> = {}): TaskDetail => ({
  ...makeTask(7),
  rendered_description: '<p>Please <strong>explain</strong>.</p>',
  attachments: [],
  available_statuses: ['closed'],
  ...overrides,
});
const makeMessage = (id: number, overrides: Partial<Comment> = {}): Comment => ({
  id,
  author: 'Anna Smirnova',
  author_id: 99,
  body: `<p>Message ${id}</p>`,
  created: Date.UTC(2026, 10, 2),
  attachments: [],
  source: 'API',
  from_soc: true,
  from_national_centre: false,
  issue_completed: false,
  is_mine: false,
  ...overrides,
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
  installFetchBackedXhr();
  window.localStorage.clear();
  // jsdom lays nothing out: give the virtualised feed a viewport and its rows a height
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? 84 : 0;
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'tasks-list' ? 600 : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('task list', () => {
  it('shows the cards with their count and links to the task page, and searches through the URL', async () => {
    const { user, fetchMock, router } = open('/issues/issues/task', {
      [LIST]: (request) => ({
        body: request.url.searchParams.get('search')
          ? page([makeTask(3, { subject: 'VPN' })])
          : page(
              [makeTask(1, { last_from_soc: true, messages_count: 2 }), makeTask(2, { status: 'closed' })],
              12,
            ),
      }),
    });
    const cards = await screen.findAllByTestId('task-card', {}, FIRST_PAINT);
    expect(cards).toHaveLength(2);
    expect(screen.getByTestId('tasks-count')).toHaveTextContent('1-2 of 12');
    expect(within(cards[0]!).getByTestId('task-soc-replied')).toBeInTheDocument();
    expect(within(cards[0]!).getByTestId('task-link')).toHaveAttribute(
      'href',
      '/issues/issues/task?model=request&type=question&id=1',
    );
    expect(callsTo(fetchMock, LIST)[0]!.url.searchParams.get('ordering')).toBe('-updated');

    await user.type(screen.getByTestId('tasks-search-input'), '  vpn  {Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?search=vpn'));
    await waitFor(() => expect(screen.getAllByTestId('task-card')).toHaveLength(1));
    expect(callsTo(fetchMock, LIST).at(-1)!.url.searchParams.get('search')).toBe('vpn');
  });

  it("says 'No data' when nothing matches and offers a retry when the list fails", async () => {
    let fail = true;
    const { user } = open('/issues/issues/task', {
      [LIST]: () => (fail ? { status: 500, body: { detail: 'boom' } } : { body: page([]) }),
    });
    const error = await screen.findByTestId('tasks-error', {}, FIRST_PAINT);
    fail = false;
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('tasks-empty')).toHaveTextContent('No data');
  });

  it('opens a task from the create form and maps server field errors onto the fields', async () => {
    let attempt = 0;
    const { user, router, fetchMock } = open('/issues/issues/task', {
      [LIST]: { body: page([]) },
      'POST /api/v0/soc/tasks/': () =>
        ++attempt === 1
          ? { status: 400, body: { subject: ['Ensure this field has no more than 255 characters.'] } }
          : { status: 201, body: makeDetail({ id: 42, type: 'other' }) },
      'GET /api/v0/soc/tasks/42/': { body: makeDetail({ id: 42, type: 'other' }) },
      'GET /api/v0/soc/tasks/42/messages/': { body: page([]) },
    });
    await user.click(await screen.findByTestId('tasks-create', {}, FIRST_PAINT));
    const modal = await screen.findByTestId('create-task-modal');
    await user.click(within(modal).getByTestId('create-task-submit'));
    // antd validates the fields one after another: wait for all three messages, not the first
    await waitFor(() =>
      expect(within(modal).getAllByText('Required field').length).toBeGreaterThanOrEqual(3),
    );

    await user.click(
      within(modal).getByTestId('create-task-type').querySelector('.ant-select-selector') ??
        within(modal).getByTestId('create-task-type'),
    );
    await user.click(await screen.findByText('Other', { selector: '.ant-select-item-option-content' }));
    await user.type(within(modal).getByTestId('create-task-subject'), 'New firewall');
    await user.type(within(modal).getByTestId('create-task-description'), 'Connect it, please.');
    await user.click(within(modal).getByTestId('create-task-submit'));
    expect(
      await within(modal).findByText('Ensure this field has no more than 255 characters.'),
    ).toBeInTheDocument();

    await user.click(within(modal).getByTestId('create-task-submit'));
    await waitFor(() => expect(router.state.location.search).toBe('?model=request&type=other&id=42'));
    expect(await screen.findByTestId('task-page')).toBeInTheDocument();
    const sent = callsTo(fetchMock, 'POST /api/v0/soc/tasks/');
    expect(sent).toHaveLength(2);
  });
});

describe('task page', () => {
  it('refuses a file over 50 MB in the create form as it is chosen, in Russian too', async () => {
    await i18n.changeLanguage('ru');
    const { user } = open('/issues/issues/task', { [LIST]: { body: page([]) } });
    await user.click(await screen.findByTestId('tasks-create', {}, FIRST_PAINT));
    const modal = await screen.findByTestId('create-task-modal');
    const big = new File(['x'], 'dump.bin');
    Object.defineProperty(big, 'size', { value: ATTACHMENT_MAX_BYTES + 1 });
    await user.upload(within(modal).getByTestId('create-attachments'), [big, new File(['x'], 'notes.txt')]);
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent),
      ).toEqual([expect.stringContaining('Файл dump.bin больше 50 МБ и не прикреплён')]),
    );
    const listed = within(modal).getByTestId('create-attachments-list');
    expect(listed).toHaveTextContent('notes.txt');
    expect(listed).not.toHaveTextContent('dump.bin');
  });

  it('shows the task and its chat, and sends a message with the shared composer', async () => {
    const messages = [makeMessage(1)];
    const { user, fetchMock } = open('/issues/issues/task?model=request&type=question&id=7', {
      'GET /api/v0/soc/tasks/7/': { body: makeDetail() },
      'GET /api/v0/soc/tasks/7/messages/': () => ({ body: page(messages) }),
      'POST /api/v0/soc/tasks/7/messages/': () => {
        const sent = makeMessage(2, {
          body: '<p>Thanks</p>',
          from_soc: false,
          is_mine: true,
          author: 'Ivan Ivanov',
        });
        messages.push(sent);
        return { status: 201, body: sent };
      },
    });
    expect(await screen.findByTestId('task-subject', {}, FIRST_PAINT)).toHaveTextContent('#7 Question 7');
    expect(screen.getByTestId('task-description').innerHTML).toContain('<strong>explain</strong>');
    expect(await screen.findByText('Message 1')).toBeInTheDocument();
    // tasks have no "issue completed" flag
    expect(screen.queryByTestId('comment-issue-completed')).not.toBeInTheDocument();
    expect(screen.getByTestId('comment-send')).toBeDisabled();
    await user.type(screen.getByTestId('comment-input'), 'Thanks');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('Thanks', { selector: 'p' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/v0/soc/tasks/7/messages/')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('comment-input')).toHaveValue(''));
  });

  it('changes the status with the offered actions and hides the composer of a closed task', async () => {
    let status: TaskDetail['status'] = 'resolved';
    const detail = () =>
      makeDetail({ status, available_statuses: status === 'closed' ? ['open'] : ['open', 'closed'] });
    const { user, fetchMock } = open('/issues/issues/task?id=7', {
      'GET /api/v0/soc/tasks/7/': () => ({ body: detail() }),
      'GET /api/v0/soc/tasks/7/messages/': { body: page([]) },
      'POST /api/v0/soc/tasks/7/status/': (request) => {
        status = (request.body as { status: TaskDetail['status'] }).status;
        return { body: detail() };
      },
    });
    await user.click(await screen.findByTestId('task-action-closed', {}, FIRST_PAINT));
    await waitFor(() => expect(screen.getByTestId('task-status')).toHaveAttribute('data-status', 'closed'));
    expect(callsTo(fetchMock, 'POST /api/v0/soc/tasks/7/status/')[0]!.body).toEqual({ status: 'closed' });
    expect(screen.getByTestId('task-closed-hint')).toBeInTheDocument();
    expect(screen.queryByTestId('comment-input')).not.toBeInTheDocument();
    expect(screen.getByTestId('task-action-open')).toBeInTheDocument();
  });

  it('says when the task does not exist or is not the caller’s', async () => {
    open('/issues/issues/task?id=9', {
      'GET /api/v0/soc/tasks/9/': { status: 404, body: { detail: 'Not found.' } },
    });
    expect(await screen.findByTestId('task-error', {}, FIRST_PAINT)).toHaveTextContent(
      'The task does not exist or you have no access to it.',
    );
  });
});
