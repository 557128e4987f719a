import type { AnalystNote, UserRef } from '@soc/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, settle } from '../../../test/fetchMock.ts';
import { staffUser } from '../../../test/fixtures.ts';
import { pickOption } from '../../incidents/test/pageHarness.ts';
import {
  ACTIONS,
  CARD,
  COMMENTS,
  KEY,
  commentsPage,
  makeCard,
  makeComment,
  openIncident,
} from '../test/incidentCardFixtures.ts';

const STAFF_CARD = `GET /api/v0/analyst/incidents/${KEY}/`;
const STAFF_PATCH = `PATCH /api/v0/analyst/incidents/${KEY}/`;
const STATUS = `POST /api/v0/analyst/incidents/${KEY}/status/`;
const NOTES = `GET /api/v0/analyst/incidents/${KEY}/notes/`;
const ADD_NOTE = `POST /api/v0/analyst/incidents/${KEY}/notes/`;
const STAFF = 'GET /api/v0/analyst/staff/';
const USER = 'GET /api/v0/auth/user/';

const colleague: UserRef = { id: 3, username: 'sidorov', full_name: 'Oleg Sidorov' };
const me: UserRef = { id: staffUser.id, username: staffUser.username, full_name: 'Anna Petrova' };

const staffCard = (socAssignee: UserRef | null = colleague, overrides = {}) => ({
  ...makeCard(overrides),
  soc_assignee: socAssignee,
});

const makeNote = (id: number, overrides: Partial<AnalystNote> = {}): AnalystNote => ({
  id,
  author: 'Oleg Sidorov',
  author_id: colleague.id,
  body: `<p>Note ${id}</p>`,
  created: Date.UTC(2026, 0, 15, 11, id % 60),
  internal: true,
  ...overrides,
});

const notesPage = (notes: AnalystNote[], total = notes.length, next: string | null = null) => ({
  total,
  next,
  previous: null,
  results: notes,
});

const toastTexts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');

/** Opens incident KEY as the staff user, the analyst endpoints mocked. */
function openAsStaff(routes: Parameters<typeof openIncident>[0] = {}) {
  return openIncident({
    [USER]: { body: staffUser },
    [STAFF_CARD]: { body: staffCard() },
    [NOTES]: { body: notesPage([]) },
    [STAFF]: { body: { total: 2, next: null, previous: null, results: [colleague, me] } },
    [ACTIONS]: { body: { results: ['complete', 'cancel'] } },
    ...routes,
  });
}

const analystCalls = (fetchMock: ReturnType<typeof openIncident>['fetchMock']) =>
  fetchMock.mock.calls
    .map(([input]) => String(input instanceof Request ? input.url : input))
    .filter((url) => url.includes('/analyst/'));

describe('incident page: SOC assignee (staff)', () => {
  it('shows the SOC assignee of the analyst card and assigns the incident to the caller', async () => {
    let assignee: UserRef | null = colleague;
    const { user, fetchMock } = openAsStaff({
      [STAFF_CARD]: () => ({ body: staffCard(assignee) }),
      [STAFF_PATCH]: () => {
        assignee = me;
        return { body: staffCard(me) };
      },
    });
    const control = await screen.findByTestId('soc-assignee');
    await waitFor(() => expect(within(control).getByText('Oleg Sidorov')).toBeInTheDocument());
    expect(screen.getByTestId('soc-assignee-select')).toHaveAttribute('data-assignee', String(colleague.id));

    await user.click(within(control).getByTestId('soc-assign-to-me'));
    await waitFor(() =>
      expect(callsTo(fetchMock, STAFF_PATCH)[0]?.body).toEqual({ soc_assignee: staffUser.id }),
    );
    await waitFor(() => expect(toastTexts().some((text) => text.includes('SOC assignee saved'))).toBe(true));
    await waitFor(() =>
      expect(screen.getByTestId('soc-assignee-select')).toHaveAttribute(
        'data-assignee',
        String(staffUser.id),
      ),
    );
    expect(screen.queryByTestId('soc-assign-to-me')).not.toBeInTheDocument();
    // the answer is put into the cache: no second GET of either card
    await settle();
    expect(callsTo(fetchMock, STAFF_CARD)).toHaveLength(1);
    expect(callsTo(fetchMock, CARD)).toHaveLength(1);
  });

  it("says 'Unassigned' and picks a colleague from the staff search", async () => {
    const { user, fetchMock } = openAsStaff({
      [STAFF_CARD]: { body: staffCard(null) },
      [STAFF_PATCH]: { body: staffCard(colleague) },
    });
    const control = await screen.findByTestId('soc-assignee');
    await waitFor(() => expect(within(control).getByText('Unassigned')).toBeInTheDocument());
    const combobox = within(screen.getByTestId('soc-assignee-select')).getByRole('combobox');
    await user.click(combobox);
    await user.type(combobox, '  sido ');
    await waitFor(() =>
      expect(callsTo(fetchMock, STAFF).some((call) => call.url.searchParams.get('search') === 'sido')).toBe(
        true,
      ),
    );
    await pickOption(user, 'Oleg Sidorov');
    await waitFor(() =>
      expect(callsTo(fetchMock, STAFF_PATCH)[0]?.body).toEqual({ soc_assignee: colleague.id }),
    );
  });

  it("puts the server's message under the select when it refuses the assignee", async () => {
    const { user } = openAsStaff({
      [STAFF_PATCH]: { status: 400, body: { soc_assignee: ['The SOC assignee must be a staff user.'] } },
    });
    await user.click(await screen.findByTestId('soc-assign-to-me'));
    expect(await screen.findByTestId('soc-assignee-errors')).toHaveTextContent(
      'The SOC assignee must be a staff user.',
    );
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('Could not save the SOC assignee'))).toBe(true),
    );
  });
});

describe('incident page: complete and cancel (staff)', () => {
  it('refuses an empty comment, then completes with the comment and refreshes actions and comments', async () => {
    let completed = false;
    const { user, fetchMock } = openAsStaff({
      [ACTIONS]: () => ({ body: { results: completed ? ['reopen'] : ['complete', 'cancel'] } }),
      [COMMENTS]: () => ({
        body: commentsPage(completed ? [makeComment(1, { body: '<p>Host re-imaged</p>' })] : []),
      }),
      [STATUS]: () => {
        completed = true;
        return { body: staffCard(colleague, { status: 'completed' }) };
      },
    });
    const actions = await screen.findByTestId('incident-actions');
    expect(within(actions).getByTestId('action-cancel')).toHaveTextContent('Cancel');
    await user.click(within(actions).getByTestId('action-complete'));
    const dialog = await screen.findByTestId('staff-status-dialog');
    expect(dialog).toHaveTextContent(`Complete incident ${KEY}`);

    await user.click(within(dialog).getByTestId('staff-status-submit'));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('staff-status-comment'), '   ');
    await user.click(within(dialog).getByTestId('staff-status-submit'));
    await settle();
    expect(callsTo(fetchMock, STATUS)).toHaveLength(0);

    await user.clear(within(dialog).getByTestId('staff-status-comment'));
    await user.type(within(dialog).getByTestId('staff-status-comment'), ' Host re-imaged ');
    await user.click(within(dialog).getByTestId('staff-status-submit'));
    await waitFor(() =>
      expect(callsTo(fetchMock, STATUS)[0]?.body).toEqual({ status: 'completed', comment: 'Host re-imaged' }),
    );
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Incident completed'))).toBe(true));
    expect(await screen.findByTestId('action-reopen')).toBeInTheDocument();
    expect(screen.getByTestId('incident-status')).toHaveTextContent('Completed');
    expect(
      await within(screen.getByTestId('comments-list')).findByText('Host re-imaged'),
    ).toBeInTheDocument();
  });

  it('cancels, showing the server’s field message under the comment and the failure toast', async () => {
    const { user, fetchMock } = openAsStaff({
      [STATUS]: { status: 400, body: { comment: ['Say why the incident is cancelled.'] } },
    });
    await user.click(await screen.findByTestId('action-cancel'));
    const dialog = await screen.findByTestId('staff-status-dialog');
    expect(dialog).toHaveAttribute('data-action', 'cancel');
    await user.type(within(dialog).getByTestId('staff-status-comment'), 'dup');
    await user.click(within(dialog).getByTestId('staff-status-submit'));
    expect(await within(dialog).findByText('Say why the incident is cancelled.')).toBeInTheDocument();
    expect(callsTo(fetchMock, STATUS)[0]?.body).toEqual({ status: 'canceled', comment: 'dup' });
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('Failed to cancel the incident'))).toBe(true),
    );
  });

  it('reopens through the customer dialog without its customer-only "Assign to myself"', async () => {
    const { user } = openAsStaff({
      [CARD]: { body: makeCard({ status: 'completed' }) },
      [ACTIONS]: { body: { results: ['reopen'] } },
    });
    await user.click(await screen.findByTestId('action-reopen'));
    const dialog = await screen.findByTestId('action-dialog');
    expect(within(dialog).getByTestId('action-comment')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('action-assign-to-me')).not.toBeInTheDocument();
    expect(screen.queryByTestId('action-complete')).not.toBeInTheDocument();
  });
});

describe('incident page: internal notes (staff)', () => {
  it('lists the notes, says they are staff-only, and adds a note with Ctrl+Enter', async () => {
    const { user, fetchMock } = openAsStaff({
      [NOTES]: { body: notesPage([makeNote(1), makeNote(2, { author: 'Anna Petrova' })]) },
      [ADD_NOTE]: (request) => ({
        status: 201,
        body: makeNote(3, {
          author: 'Anna Petrova',
          body: `<p>${(request.body as { body: string }).body}</p>`,
        }),
      }),
    });
    const panel = await screen.findByTestId('internal-notes');
    expect(within(panel).getByTestId('notes-staff-only')).toHaveTextContent('Visible to SOC staff only');
    const notes = await within(panel).findAllByTestId('note');
    expect(notes.map((note) => note.textContent)).toEqual([
      expect.stringContaining('Note 1'),
      expect.stringContaining('Note 2'),
    ]);
    expect(within(notes[1]!).getByTestId('note-author')).toHaveTextContent('Anna Petrova');

    // the send button waits for text
    expect(within(panel).getByTestId('note-send')).toBeDisabled();
    const input = within(panel).getByTestId('note-input');
    await user.type(input, '  Called the admin  ');
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(callsTo(fetchMock, ADD_NOTE)[0]?.body).toEqual({ body: 'Called the admin' }));
    await waitFor(() => expect(within(panel).getAllByTestId('note')).toHaveLength(3));
    expect(within(panel).getAllByTestId('note')[2]).toHaveTextContent('Called the admin');
    expect(input).toHaveValue('');
    // shown from the POST's answer, not a second GET
    expect(callsTo(fetchMock, NOTES)).toHaveLength(1);
    // the note went to the notes, not to the customer's chat
    expect(callsTo(fetchMock, `POST /api/v0/soc/incs/${KEY}/comments/`)).toHaveLength(0);
  });

  it('opens on the latest page and shows earlier notes on demand', async () => {
    const { user, fetchMock } = openAsStaff({
      [NOTES]: (request) =>
        request.url.searchParams.get('page') === '2'
          ? { body: notesPage([makeNote(51)], 51) }
          : {
              body: notesPage([makeNote(1), makeNote(2)], 51, '/api/v0/analyst/incidents/4242/notes/?page=2'),
            },
    });
    const panel = await screen.findByTestId('internal-notes');
    await waitFor(() => expect(within(panel).getAllByTestId('note')).toHaveLength(1));
    expect(within(panel).getByTestId('note')).toHaveTextContent('Note 51');
    await user.click(within(panel).getByTestId('notes-show-earlier'));
    await waitFor(() => expect(within(panel).getAllByTestId('note')).toHaveLength(3));
    expect(
      within(panel)
        .getAllByTestId('note')
        .map((note) => note.dataset.id),
    ).toEqual(['1', '2', '51']);
    expect(within(panel).queryByTestId('notes-show-earlier')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, NOTES).map((call) => call.url.searchParams.get('page'))).toEqual([
      '1',
      '2',
      '1',
    ]);
  });

  it('says when there are no notes, and offers a retry when they fail to load', async () => {
    let fail = true;
    const { user } = openAsStaff({
      [NOTES]: () => (fail ? { status: 500, body: { detail: 'Server error.' } } : { body: notesPage([]) }),
    });
    const panel = await screen.findByTestId('internal-notes');
    const error = await within(panel).findByTestId('notes-error');
    fail = false;
    await user.click(within(error).getByRole('button'));
    expect(await within(panel).findByTestId('notes-empty')).toHaveTextContent('No internal notes yet');
  });

  it('marks the customer chat composer as read by the customer, without the issue-completed flag', async () => {
    openAsStaff();
    const audience = await screen.findByTestId('comment-audience');
    expect(audience).toHaveTextContent('Reply to the customer');
    expect(within(screen.getByTestId('comments-panel')).queryByTestId('comment-issue-completed')).toBeNull();
  });
});

describe('incident page: editing fields (staff)', () => {
  it('sends only the changed fields and shows the card the server answers', async () => {
    const { user, fetchMock } = openAsStaff({
      [CARD]: { body: makeCard({ tags: ['c2'] }) },
      [STAFF_PATCH]: (request) => ({
        body: staffCard(colleague, { tags: ['c2'], ...(request.body as object) }),
      }),
    });
    await user.click(await screen.findByTestId('incident-edit'));
    const drawer = await screen.findByTestId('edit-drawer');
    // nothing changed yet
    expect(within(drawer).getByTestId('edit-save')).toBeDisabled();
    const summary = within(drawer).getByTestId('edit-summary');
    expect(summary).toHaveValue('Beaconing to a known C2 server');
    await user.clear(summary);
    await user.type(summary, 'Beaconing to C2 from ws-17 ');
    const tags = within(within(drawer).getByTestId('edit-tags')).getByRole('combobox');
    await user.type(tags, 'escalated{Enter}');
    await user.click(within(drawer).getByTestId('edit-save'));
    await waitFor(() =>
      expect(callsTo(fetchMock, STAFF_PATCH)[0]?.body).toEqual({
        summary: 'Beaconing to C2 from ws-17',
        tags: ['c2', 'escalated'],
      }),
    );
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Incident updated'))).toBe(true));
    await waitFor(() =>
      expect(screen.getByTestId('incident-title')).toHaveTextContent(`${KEY}: Beaconing to C2 from ws-17`),
    );
  });

  it("puts the server's field messages under the fields", async () => {
    const { user } = openAsStaff({
      [STAFF_PATCH]: { status: 400, body: { recommendations: ['Too long for the PDF.'] } },
    });
    await user.click(await screen.findByTestId('incident-edit'));
    const drawer = await screen.findByTestId('edit-drawer');
    await user.type(within(drawer).getByTestId('edit-recommendations-input'), ' Then patch it.');
    await user.click(within(drawer).getByTestId('edit-save'));
    expect(await within(drawer).findByText('Too long for the PDF.')).toBeInTheDocument();
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('Could not update the incident'))).toBe(true),
    );
  });
});

describe('incident page: keyboard shortcuts (staff)', () => {
  it('focuses the composers, assigns to me and lists the keys, but not while typing', async () => {
    const { user, fetchMock } = openAsStaff({ [STAFF_PATCH]: { body: staffCard(me) } });
    await screen.findByTestId('soc-assign-to-me');
    const note = await screen.findByTestId('note-input');

    await user.keyboard('n');
    expect(note).toHaveFocus();
    // typed into the note: no shortcut runs
    await user.keyboard('mc');
    expect(note).toHaveValue('mc');
    expect(callsTo(fetchMock, STAFF_PATCH)).toHaveLength(0);

    note.blur();
    await user.keyboard('c');
    expect(within(screen.getByTestId('comments-panel')).getByTestId('comment-input')).toHaveFocus();

    (document.activeElement as HTMLElement).blur();
    await user.keyboard('m');
    await waitFor(() =>
      expect(callsTo(fetchMock, STAFF_PATCH)[0]?.body).toEqual({ soc_assignee: staffUser.id }),
    );

    await user.keyboard('?');
    const dialog = await screen.findByTestId('shortcuts-dialog');
    expect(dialog).toHaveTextContent('Write an internal note');
    expect(dialog).toHaveTextContent('Assign the incident to me at the SOC');
  });

  it('has no shortcuts for a customer', async () => {
    const { user } = openIncident();
    await screen.findByTestId('action-confirm');
    await user.keyboard('?');
    await settle();
    expect(screen.queryByTestId('shortcuts-dialog')).not.toBeInTheDocument();
  });
});

describe('incident page: customers see no staff controls', () => {
  it('renders none of them and calls no analyst route', async () => {
    const { fetchMock } = openIncident({
      // even were the server to offer them, a customer gets no SOC actions
      [ACTIONS]: { body: { results: ['confirm', 'close', 'complete', 'cancel'] } },
    });
    expect(await screen.findByTestId('action-confirm')).toBeInTheDocument();
    expect(screen.getByTestId('comment-issue-completed')).toBeInTheDocument();
    await settle();
    expect(screen.queryByTestId('action-complete')).not.toBeInTheDocument();
    expect(screen.queryByTestId('action-cancel')).not.toBeInTheDocument();
    expect(screen.queryByTestId('soc-assignee')).not.toBeInTheDocument();
    expect(screen.queryByTestId('internal-notes')).not.toBeInTheDocument();
    expect(screen.queryByTestId('comment-audience')).not.toBeInTheDocument();
    expect(screen.queryByTestId('incident-edit')).not.toBeInTheDocument();
    expect(screen.queryByText('SOC assignee')).not.toBeInTheDocument();
    expect(analystCalls(fetchMock)).toEqual([]);
  });
});
