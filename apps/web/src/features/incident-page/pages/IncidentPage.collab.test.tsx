import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installFetchBackedXhr } from '../../../test/fakeXhr.ts';
import { callsTo, settle } from '../../../test/fetchMock.ts';
import { currentUser } from '../../../test/fixtures.ts';
import { clearDownloads } from '@/shared/downloads/downloads.ts';
import {
  ADD_COMMENT,
  CARD,
  COMMENTS,
  KEY,
  USERS,
  commentsPage,
  makeCard,
  makeComment,
  openIncident,
} from '../test/incidentCardFixtures.ts';
import { pickOption } from '../../incidents/test/pageHarness.ts';

const ASSIGN = `POST /api/v0/soc/incs/${KEY}/assign_to_customer/`;
const RATE = `POST /api/v0/soc/incs/${KEY}/add_rating/`;
const PDF = `GET /api/v0/soc/incs/${KEY}/get_pdf_inc/`;
const GOSSOPKA = `POST /api/v0/soc/incs/${KEY}/manually_send_to_gossopka/`;

const toastTexts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');

const me = { id: currentUser.id, username: currentUser.username, full_name: 'Ivan Ivanov' };

beforeEach(() => {
  installFetchBackedXhr();
  clearDownloads();
  // jsdom has no object URLs; downloads and thumbnails need them.
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: vi.fn(() => 'blob:file') });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
});

describe('incident page: assignment', () => {
  it("assigns the incident to the caller with 'Assign to yourself', then hides the button", async () => {
    const { user, fetchMock } = openIncident({
      [CARD]: { body: makeCard({ customer_assignee: null }) },
      [ASSIGN]: { body: makeCard({ customer_assignee: me }) },
    });
    await user.click(await screen.findByTestId('assign-to-yourself'));
    await waitFor(() =>
      expect(callsTo(fetchMock, ASSIGN)[0]?.body).toEqual({ customer_assignee_id: currentUser.id }),
    );
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Changes saved'))).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('assign-to-yourself')).not.toBeInTheDocument());
    expect(screen.getByTestId('assignee-select')).toHaveAttribute('data-assignee', String(currentUser.id));
    // The page shows the card the assignment answered: no second GET of it.
    await settle();
    expect(callsTo(fetchMock, CARD)).toHaveLength(1);
  });

  it("shows 'Error while saving: {status}' with the answer's fields when the server refuses", async () => {
    const { user } = openIncident({
      [ASSIGN]: { status: 400, body: { customer_assignee_id: ['User is not active.'] } },
    });
    await user.click(await screen.findByTestId('assign-to-yourself'));
    await waitFor(() =>
      expect(
        toastTexts().some(
          (text) =>
            text.includes('Error while saving: 400') &&
            text.includes('customer_assignee_id: User is not active.'),
        ),
      ).toBe(true),
    );
  });

  it('searches the active users of the system with trimmed, debounced text and assigns the chosen one', async () => {
    const { user, fetchMock } = openIncident({
      [USERS]: (request) => ({
        body: {
          total: 1,
          next: null,
          previous: null,
          results:
            request.url.searchParams.get('search') === 'petr'
              ? [
                  {
                    id: 12,
                    username: 'petrov',
                    first_name: 'Petr',
                    last_name: 'Petrov',
                    full_name: 'Petr Petrov',
                    is_active: true,
                  },
                ]
              : [],
        },
      }),
      [ASSIGN]: { body: makeCard() },
    });
    const select = await screen.findByTestId('assignee-select');
    await user.click(within(select).getByRole('combobox'));
    await user.keyboard('  petr ');
    await pickOption(user, 'Petr Petrov');
    const searches = callsTo(fetchMock, USERS).map((request) => request.url.searchParams);
    // One request for the opened list, one for the settled text; none per keystroke.
    expect(searches.map((params) => params.get('search'))).toEqual([null, 'petr']);
    expect(searches.at(-1)?.get('system__in')).toBe('1');
    expect(searches.at(-1)?.get('is_active')).toBe('true');
    expect(searches.at(-1)?.get('page_size')).toBe('10');
    await waitFor(() => expect(callsTo(fetchMock, ASSIGN)[0]?.body).toEqual({ customer_assignee_id: 12 }));
  });
});

describe('incident page: rating', () => {
  it('hides the rating form until the incident may be rated', async () => {
    openIncident();
    await screen.findByTestId('incident-main-info');
    expect(screen.queryByTestId('rating-form')).not.toBeInTheDocument();
  });

  it('shows submit and cancel once a star is chosen, and sends the rating', async () => {
    const { user, fetchMock } = openIncident({
      [CARD]: { body: makeCard({ status: 'closed', can_rate: true }) },
      [RATE]: {
        body: makeCard({
          status: 'closed',
          customer_star_rating: 4,
          customer_star_rating_comment: 'Quick',
          can_rate: false,
        }),
      },
    });
    const form = await screen.findByTestId('rating-form');
    expect(within(form).queryByTestId('rating-submit')).not.toBeInTheDocument();
    const stars = within(form).getAllByRole('radio');
    await user.click(stars[3]!);
    await user.type(await within(form).findByTestId('rating-comment'), ' Quick ');
    await user.click(within(form).getByTestId('rating-submit'));
    await waitFor(() => expect(callsTo(fetchMock, RATE)[0]?.body).toEqual({ rating: 4, comment: 'Quick' }));
    expect(await screen.findByTestId('rating-given')).toHaveTextContent('Quick');
    // The page shows the card the rating answered: no second GET of it.
    await settle();
    expect(callsTo(fetchMock, CARD)).toHaveLength(1);
  });

  it('cancel clears the chosen stars; a 400 puts the messages on the fields with the toast', async () => {
    const { user } = openIncident({
      [CARD]: { body: makeCard({ status: 'closed', can_rate: true }) },
      [RATE]: { status: 400, body: { comment: ['Too rude.'] } },
    });
    const form = await screen.findByTestId('rating-form');
    await user.click(within(form).getAllByRole('radio')[1]!);
    await user.click(await within(form).findByTestId('rating-cancel'));
    await waitFor(() => expect(within(form).queryByTestId('rating-submit')).not.toBeInTheDocument());
    await user.click(within(form).getAllByRole('radio')[0]!);
    await user.click(await within(form).findByTestId('rating-submit'));
    expect(await within(form).findByText('Too rude.')).toBeInTheDocument();
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('An error occurred while adding the rating'))).toBe(
        true,
      ),
    );
  });
});

describe('incident page: comment composer', () => {
  it('sends only with text, by Ctrl+Enter, with files and the flag, then clears', async () => {
    let comments = [makeComment(1)];
    const { user, fetchMock } = openIncident({
      [COMMENTS]: () => ({ body: commentsPage(comments) }),
      [ADD_COMMENT]: () => {
        comments = [...comments, makeComment(2, { body: '<p>See the log</p>', is_mine: true })];
        return { status: 201, body: comments[1] };
      },
    });
    const input = await screen.findByTestId('comment-input');
    const send = screen.getByTestId('comment-send');
    expect(send).toBeDisabled();
    await user.type(input, '   ');
    expect(send).toBeDisabled();

    const file = new File(['log line'], 'auth.log', { type: 'text/plain' });
    await user.upload(screen.getByTestId('comment-file-input'), file);
    const dropped = new File(['png'], 'shot.png', { type: 'image/png' });
    fireEvent.drop(screen.getByTestId('comment-composer'), {
      dataTransfer: { files: [dropped], types: ['Files'] },
    });
    await waitFor(() => expect(screen.getAllByTestId('comment-file')).toHaveLength(2));
    await user.click(within(screen.getAllByTestId('comment-file')[1]!).getByTestId('comment-file-remove'));
    expect(screen.getAllByTestId('comment-file')).toHaveLength(1);

    await user.click(screen.getByTestId('comment-issue-completed'));
    await user.clear(input);
    await user.type(input, 'See the log');
    expect(send).toBeEnabled();
    await user.keyboard('{Control>}{Enter}{/Control}');

    await waitFor(() => expect(callsTo(fetchMock, ADD_COMMENT)).toHaveLength(1));
    const init = fetchMock.mock.calls.find(
      ([url, options]) =>
        typeof url === 'string' && url.endsWith(`/soc/incs/${KEY}/comments/`) && options?.method === 'POST',
    )?.[1];
    const body = init?.body as FormData;
    expect(body.get('body')).toBe('See the log');
    expect(body.get('issue_completed')).toBe('true');
    expect(body.getAll('attachments').map((part) => (part as File).name)).toEqual(['auth.log']);

    await waitFor(() => expect(screen.getAllByTestId('comment')).toHaveLength(2));
    expect(input).toHaveValue('');
    expect(screen.queryByTestId('comment-file')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'The issue is resolved on our side' })).not.toBeChecked();
  });

  it('shows image attachments of a comment as thumbnails and others as links', async () => {
    const attachment = (id: string, filename: string, content_type: string) => ({
      id,
      filename,
      size: 2048,
      content_type,
      created: 0,
      link: `/api/v0/soc/incs/${KEY}/attachments/${id}/download/`,
    });
    openIncident({
      [COMMENTS]: {
        body: commentsPage([
          makeComment(1, {
            attachments: [
              attachment('a1', 'screen.png', 'image/png'),
              attachment('a2', 'report.docx', 'application/msword'),
            ],
          }),
        ]),
      },
      [`GET /api/v0/soc/incs/${KEY}/attachments/a1/download/`]: { body: 'png' },
    });
    const thumbnail = await screen.findByAltText('screen.png');
    expect(thumbnail).toHaveAttribute('src', 'blob:file');
    // Only the image has a thumbnail.
    expect(screen.queryByAltText('report.docx')).not.toBeInTheDocument();
    const links = screen.getAllByTestId('comment-attachments-link').map((link) => link.textContent);
    expect(links).toEqual(['screen.png', 'report.docx']);
  });
});

describe('incident page: PDF and downloads', () => {
  it('lists a failed PDF download with retry and remove', async () => {
    let fail = true;
    const { user, fetchMock } = openIncident({
      [PDF]: () => (fail ? { status: 500, body: { detail: 'PDF engine down.' } } : { body: 'pdf' }),
    });
    await user.click(await screen.findByTestId('incident-pdf'));
    const item = await screen.findByTestId('download-item');
    await waitFor(() => expect(item).toHaveAttribute('data-status', 'exception'));
    expect(item).toHaveAttribute('data-filename', `incident-${KEY}.pdf`);
    expect(within(item).getByTestId('download-error')).toHaveTextContent('PDF engine down.');
    expect(callsTo(fetchMock, PDF)[0]?.url.searchParams.get('language')).toBe('en');

    fail = false;
    await user.click(within(item).getByTestId('download-retry'));
    await waitFor(() =>
      expect(screen.getByTestId('download-item')).toHaveAttribute('data-status', 'success'),
    );
    expect(callsTo(fetchMock, PDF)).toHaveLength(2);
  });

  it('removes a failed download from the popup', async () => {
    const { user } = openIncident({ [PDF]: { status: 500, body: { detail: 'Down.' } } });
    await user.click(await screen.findByTestId('incident-pdf'));
    const item = await screen.findByTestId('download-item');
    await waitFor(() => expect(item).toHaveAttribute('data-status', 'exception'));
    await user.click(within(item).getByTestId('download-remove'));
    await waitFor(() => expect(screen.queryByTestId('download-item')).not.toBeInTheDocument());
  });
});

describe('incident page: national centre', () => {
  it('counts down to a planned send as hh:mm:ss with the send button', async () => {
    openIncident({
      [CARD]: {
        body: makeCard({
          gossopka_state: 'planned',
          gossopka_planned_time: Date.now() + (2 * 3600 + 5 * 60 + 30) * 1000,
          show_gossopka_button: true,
        }),
      },
    });
    const countdown = await screen.findByTestId('gossopka-countdown');
    expect(countdown.textContent).toMatch(/^02:05:(30|29)$/);
    expect(screen.getByTestId('gossopka-send')).toBeInTheDocument();
  });

  it('sends after confirmation and shows the error label with retry when the send failed', async () => {
    const { user, fetchMock } = openIncident({
      [CARD]: {
        body: makeCard({
          gossopka_state: 'error',
          gossopka_error: 'Centre unavailable',
          show_gossopka_button: true,
        }),
      },
      [GOSSOPKA]: {
        body: {
          gossopka_state: 'processing',
          gossopka_id: null,
          gossopka_send_time: null,
          gossopka_planned_time: null,
          gossopka_processing_since: Date.now(),
          gossopka_error: null,
          show_gossopka_button: false,
        },
      },
    });
    expect(await screen.findByTestId('gossopka-error')).toHaveTextContent(
      'Sending failed: Centre unavailable',
    );
    await user.click(screen.getByTestId('gossopka-send'));
    expect(callsTo(fetchMock, GOSSOPKA)).toHaveLength(0);
    await user.click(await screen.findByTestId('gossopka-confirm-ok'));
    await waitFor(() => expect(callsTo(fetchMock, GOSSOPKA)).toHaveLength(1));
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('Sending to the national centre has started'))).toBe(
        true,
      ),
    );
  });
});
