import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, settle } from '../../../test/fetchMock.ts';
import { ACTIONS, CARD, KEY, makeCard, openIncident } from '../test/incidentCardFixtures.ts';
import { pickOption } from '../../incidents/test/pageHarness.ts';

const CLOSE = `POST /api/v0/soc/incs/${KEY}/close/`;
const CONFIRM = `POST /api/v0/soc/incs/${KEY}/confirm/`;
const REOPEN = `POST /api/v0/soc/incs/${KEY}/reopen/`;
const PATCH = `PATCH /api/v0/soc/incs/${KEY}/`;

const toastTexts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');

/** Whether the dialog with this test id is open (jsdom keeps closed ones in their leaving state). */
function isOpen(testId: string): boolean {
  const modal = screen.queryByTestId(testId)?.closest('.ant-modal');
  return !!modal && !modal.className.includes('-leave');
}

describe('incident page: workflow actions', () => {
  it('closes an incident with a resolution and a comment, then shows the card it answers and new actions', async () => {
    let closed = false;
    const { user, fetchMock } = openIncident({
      [ACTIONS]: () => ({ body: { results: closed ? ['reopen'] : ['confirm', 'close'] } }),
      [CLOSE]: () => {
        closed = true;
        return { body: makeCard({ status: 'closed' }) };
      },
    });
    await user.click(await screen.findByTestId('action-close'));
    const dialog = await screen.findByTestId('action-dialog');
    expect(dialog).toHaveTextContent(`Close incident ${KEY}`);

    // Both fields are required.
    await user.click(within(dialog).getByTestId('action-submit'));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    expect(callsTo(fetchMock, CLOSE)).toHaveLength(0);

    await user.click(within(within(dialog).getByTestId('action-resolution')).getByRole('combobox'));
    await pickOption(user, 'Legitimate activity (False Positive)');
    await user.type(within(dialog).getByTestId('action-comment'), '  Planned pentest  ');
    await user.click(within(dialog).getByTestId('action-assign-to-me'));
    await user.click(within(dialog).getByTestId('action-submit'));

    await waitFor(() => expect(callsTo(fetchMock, CLOSE)).toHaveLength(1));
    expect(callsTo(fetchMock, CLOSE)[0]?.body).toEqual({
      comment: 'Planned pentest',
      change_customer_assignee: true,
      resolution_name: 32,
    });
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Incident closed'))).toBe(true));
    await waitFor(() => expect(isOpen('action-dialog')).toBe(false));
    // The actions are fetched again; the card is the action's answer, not a second GET.
    expect(await screen.findByTestId('action-reopen')).toBeInTheDocument();
    expect(screen.getByTestId('incident-status')).toHaveTextContent('Closed');
    await settle();
    expect(callsTo(fetchMock, CARD)).toHaveLength(1);
  });

  it('puts server field messages under the fields and shows the failure toast', async () => {
    const { user } = openIncident({
      [CONFIRM]: {
        status: 400,
        body: { comment: ['Comment is too vague.'], non_field_errors: ['Not now.'] },
      },
    });
    await user.click(await screen.findByTestId('action-confirm'));
    const dialog = await screen.findByTestId('action-dialog');
    await user.type(within(dialog).getByTestId('action-comment'), 'ok');
    await user.click(within(dialog).getByTestId('action-submit'));
    expect(await within(dialog).findByText('Comment is too vague.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('action-form-errors')).toHaveTextContent('Not now.');
    await waitFor(() =>
      expect(
        toastTexts().some((text) => text.includes('Failed to confirm the incident. Please try again later')),
      ).toBe(true),
    );
    expect(isOpen('action-dialog')).toBe(true);
  });

  it('reopens an incident and shows the success toast', async () => {
    const { user, fetchMock } = openIncident({
      [CARD]: { body: makeCard({ status: 'closed' }) },
      [ACTIONS]: { body: { results: ['reopen'] } },
      [REOPEN]: { body: makeCard({ status: 'waiting_for_support' }) },
    });
    await user.click(await screen.findByTestId('action-reopen'));
    const dialog = await screen.findByTestId('action-dialog');
    expect(within(dialog).queryByTestId('action-resolution')).not.toBeInTheDocument();
    await user.type(within(dialog).getByTestId('action-comment'), 'It happened again');
    await user.click(within(dialog).getByTestId('action-submit'));
    await waitFor(() =>
      expect(callsTo(fetchMock, REOPEN)[0]?.body).toEqual({
        comment: 'It happened again',
        change_customer_assignee: false,
      }),
    );
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Incident reopened'))).toBe(true));
  });

  it('shows the failure toast of product §A8 when the server refuses an action', async () => {
    const { user } = openIncident({ [CLOSE]: { status: 500, body: { detail: 'Server error.' } } });
    await user.click(await screen.findByTestId('action-close'));
    const dialog = await screen.findByTestId('action-dialog');
    await user.click(within(within(dialog).getByTestId('action-resolution')).getByRole('combobox'));
    await pickOption(user, 'Confirmed attack (True Positive)');
    await user.type(within(dialog).getByTestId('action-comment'), 'done');
    await user.click(within(dialog).getByTestId('action-submit'));
    await waitFor(() =>
      expect(
        toastTexts().some((text) => text.includes('Failed to close the incident. Please try again later')),
      ).toBe(true),
    );
  });
});

describe('incident page: priority', () => {
  it('opens the priority dialog from ?updatePriority and shows the card the change answers', async () => {
    const { user, fetchMock, router } = openIncident(
      {
        [CARD]: { body: makeCard({ priority: 'high' }) },
        [PATCH]: (request) => ({
          body: makeCard({ priority: (request.body as { priority: 'low' }).priority }),
        }),
      },
      `/inc/${KEY}?updatePriority`,
    );
    const dialog = await screen.findByTestId('priority-dialog');
    await waitFor(() => expect(isOpen('priority-dialog')).toBe(true));
    await user.click(within(within(dialog).getByTestId('priority-dialog-select')).getByRole('combobox'));
    await pickOption(user, 'Low');
    await user.click(within(dialog).getByTestId('priority-save'));
    await waitFor(() => expect(callsTo(fetchMock, PATCH)[0]?.body).toEqual({ priority: 'low' }));
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Priority changed'))).toBe(true));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(screen.getByTestId('incident-priority-select')).toHaveAttribute('data-priority', 'low'),
    );
    await settle();
    expect(callsTo(fetchMock, CARD)).toHaveLength(1);
  });

  it('changes the priority inline, offering critical only when allowed', async () => {
    const { user, fetchMock } = openIncident({
      [PATCH]: { body: makeCard({ priority: 'medium' }) },
    });
    const select = await screen.findByTestId('incident-priority-select');
    await user.click(within(select).getByRole('combobox'));
    await pickOption(user, 'Medium');
    await waitFor(() => expect(callsTo(fetchMock, PATCH)[0]?.body).toEqual({ priority: 'medium' }));
    expect(document.querySelector('.ant-select-item-option[title="Critical"]')).toBeNull();
  });
});
