import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const TICKET = 'POST /api/v0/auth/token/ticket/';

describe('ExternalLoginCallbackPage', () => {
  it('exchanges the ticket once, stores the OIDC tokens, loads the user and opens the requested page', async () => {
    const access = makeAccessToken();
    const fetchMock = mockFetch(
      baseRoutes({ [TICKET]: { body: { access, refresh: 'refresh-oidc', token_type: 'OIDC' } } }),
    );
    const { router } = renderApp('/auth/callback?ticket=t-1&next=/incidents');
    expect(await screen.findByTestId('shell-header')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/incidents');
    expect(callsTo(fetchMock, TICKET).map((c) => c.body)).toEqual([{ ticket: 't-1' }]);
    expect(JSON.parse(window.localStorage.getItem('auth') ?? 'null')).toEqual({
      access,
      refresh: 'refresh-oidc',
      tokenType: 'OIDC',
    });
    // spec 000 §7: OIDC logins send 'OIDC {token}'
    const userCall = callsTo(fetchMock, 'GET /api/v0/auth/user/')[0];
    expect(userCall?.headers.get('authorization')).toBe(`OIDC ${access}`);
  });

  it('says that no account is linked when the server found none', async () => {
    mockFetch(baseRoutes());
    renderApp('/auth/callback?error=no_account');
    expect(await screen.findByTestId('login-callback-error')).toHaveTextContent(
      'No portal account is linked to this identity.',
    );
  });

  it('says the link expired when the ticket is refused, and leads back to the login screen', async () => {
    mockFetch(baseRoutes({ [TICKET]: { status: 401, body: { detail: 'gone' } } }));
    const { user } = renderApp('/auth/callback?ticket=t-2');
    const error = await screen.findByTestId('login-callback-error');
    expect(error).toHaveTextContent('The sign-in link is invalid or has expired.');
    expect(window.localStorage.getItem('auth')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
  });
});
