import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const TICKET = 'POST /api/v0/auth/token/ticket/';
const MFA_OBTAIN = 'POST /api/v0/auth/token/mfa/obtain/';

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
    // product §A7: OIDC logins send 'OIDC {token}'
    const userCall = callsTo(fetchMock, 'GET /api/v0/auth/user/')[0];
    expect(userCall?.headers.get('authorization')).toBe(`OIDC ${access}`);
  });

  it('opens the code step of the login screen when the portal second factor applies, then signs in as OIDC', async () => {
    const access = makeAccessToken();
    const fetchMock = mockFetch(
      baseRoutes({
        [TICKET]: {
          body: { mfa_token: 'mfa-oidc', generate_challenge_timeout: 0, method: 'totp', token_type: 'OIDC' },
        },
        [MFA_OBTAIN]: { body: { access, refresh: 'refresh-oidc' } },
      }),
    );
    const { user, router } = renderApp('/auth/callback?ticket=t-3&next=/incidents');
    const pin = await screen.findByTestId('mfa-pin');
    expect(router.state.location.pathname).toBe('/incidents');
    expect(window.localStorage.getItem('auth')).toBeNull();
    await user.click(pin.querySelector('input')!);
    await user.keyboard('246810');
    expect(await screen.findByTestId('shell-header')).toBeInTheDocument();
    expect(callsTo(fetchMock, MFA_OBTAIN).map((c) => c.body)).toEqual([
      { mfa_token: 'mfa-oidc', otp: '246810' },
    ]);
    expect(JSON.parse(window.localStorage.getItem('auth') ?? 'null')).toMatchObject({
      access,
      tokenType: 'OIDC',
    });
  });

  it('says the sign-in began in another browser when the exchange is refused with 403', async () => {
    mockFetch(baseRoutes({ [TICKET]: { status: 403, body: { detail: 'other browser' } } }));
    renderApp('/auth/callback?ticket=t-4');
    expect(await screen.findByTestId('login-callback-error')).toHaveTextContent(
      'This sign-in was started in another browser',
    );
    expect(window.localStorage.getItem('auth')).toBeNull();
  });

  it.each([
    ['other_browser', 'This sign-in was started in another browser'],
    ['email_unverified', 'has not confirmed your e-mail address'],
    ['email_taken', 'Sign in with the password, or ask your administrator'],
  ])('explains the refusal %s', async (code, text) => {
    mockFetch(baseRoutes());
    renderApp(`/auth/callback?error=${code}`);
    expect(await screen.findByTestId('login-callback-error')).toHaveTextContent(text);
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
