import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

/** A state on a busy 2-core machine (the whole suite beside the server's) can take seconds. */
const BUSY = { timeout: 15_000 };

const saved = {
  events: ['incident_created', 'soc_comment'],
  scope: 'assigned',
  language: 'en',
  portal_events: ['incident_created', 'comment', 'task_answer'],
  email: 'alice@customer1.example',
};

describe('the notification settings', () => {
  it('have an e-mail and an "In the portal" column, and save both choices', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    const fetchMock = mockFetch(
      baseRoutes({
        'GET /api/v0/notifications/preferences/': { body: saved },
        'PUT /api/v0/notifications/preferences/': (request) => ({
          body: { ...(request.body as object), email: saved.email },
        }),
      }),
    );
    const { user } = renderApp('/profile/notifications');
    const portalComment = await screen.findByRole(
      'checkbox',
      { name: 'Someone else comments on an incident I follow: In the portal' },
      BUSY,
    );
    expect(portalComment).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'A new incident is registered: By e-mail' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'A report is ready: In the portal' })).not.toBeChecked();
    // an event of one channel only has no box in the other
    expect(
      screen.queryByRole('checkbox', { name: 'The SOC answers my request: By e-mail' }),
    ).not.toBeInTheDocument();

    await user.click(portalComment);
    await user.click(screen.getByRole('checkbox', { name: 'A report is ready: In the portal' }));
    await user.click(screen.getByRole('checkbox', { name: 'A report is ready: By e-mail' }));
    await user.click(screen.getByTestId('notification-settings-save'));
    await waitFor(
      () => expect(callsTo(fetchMock, 'PUT /api/v0/notifications/preferences/')).toHaveLength(1),
      BUSY,
    );
    expect(callsTo(fetchMock, 'PUT /api/v0/notifications/preferences/')[0]!.body).toEqual({
      events: ['incident_created', 'soc_comment', 'report_ready'],
      scope: 'assigned',
      language: 'en',
      portal_events: ['incident_created', 'task_answer', 'report_ready'],
    });
  });
});
