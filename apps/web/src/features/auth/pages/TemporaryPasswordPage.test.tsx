import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const USER = 'GET /api/v0/auth/user/';
const CHANGE = 'PUT /api/v0/auth/password_change/';

describe('temporary password given by the administrator', () => {
  it('opens only the change-password screen until the password is changed, then signs in again', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
    let mustChange = true;
    const fetchMock = mockFetch(
      baseRoutes({
        [USER]: () => ({ body: { ...currentUser, must_change_password: mustChange } }),
        [CHANGE]: () => {
          mustChange = false;
          return { body: { detail: 'Password changed.' } };
        },
      }),
    );
    const { user } = renderApp('/incidents');
    const page = await screen.findByTestId('temporary-password-page', {}, { timeout: 10_000 });
    expect(within(page).getByText(/temporary one given by the administrator/)).toBeInTheDocument();
    // nothing of the shell: no menu, no incidents list
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByTestId('incidents-page')).not.toBeInTheDocument();

    await user.click(within(page).getByTestId('cp-old'));
    await user.paste('Temp-password-1');
    await user.click(within(page).getByTestId('cp-new'));
    await user.paste('My-own-passphrase-2026');
    await user.click(within(page).getByTestId('cp-confirm'));
    await user.paste('My-own-passphrase-2026');
    await user.click(within(page).getByTestId('cp-submit'));
    // the change ended every session, this one too: the login screen, not the app
    expect(await screen.findByTestId('login-username', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('temporary-password-page')).not.toBeInTheDocument();
    expect(authStore.get()).toBeNull();
    expect(callsTo(fetchMock, CHANGE).map((c) => c.body)).toEqual([
      {
        old_password: 'Temp-password-1',
        password: 'My-own-passphrase-2026',
        confirmed_password: 'My-own-passphrase-2026',
      },
    ]);
  });
});
