import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes, portalConfig } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const OBTAIN = 'POST /api/v0/auth/token/obtain/';
const MFA_OBTAIN = 'POST /api/v0/auth/token/mfa/obtain/';
const MFA_CHALLENGE = 'POST /api/v0/auth/token/mfa/generate_challenge/';

describe('LoginPage', () => {
  it('requires login and password, in English', async () => {
    const fetchMock = mockFetch(baseRoutes());
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByTestId('login-submit'));
    expect(await screen.findByText('Enter login')).toBeInTheDocument();
    expect(screen.getByText('Enter password')).toBeInTheDocument();
    expect(callsTo(fetchMock, OBTAIN)).toHaveLength(0);
  });

  it('requires login and password, in Russian', async () => {
    await i18n.changeLanguage('ru');
    mockFetch(baseRoutes());
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Войти' }));
    expect(await screen.findByText('Введите логин')).toBeInTheDocument();
    expect(screen.getByText('Введите пароль')).toBeInTheDocument();
  });

  it('re-translates shown validation messages when the language changes', async () => {
    mockFetch(baseRoutes());
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByTestId('login-submit'));
    expect(await screen.findByText('Enter login')).toBeInTheDocument();
    await user.click(screen.getByTestId('lang-switch'));
    // The English message leaves with an animation that jsdom never finishes; the new one is what counts.
    expect(await screen.findByText('Введите логин')).toBeInTheDocument();
  });

  it('is branded with the portal name and labels its inputs', async () => {
    mockFetch(baseRoutes());
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme SOC' })).toBeInTheDocument();
    expect(screen.getByLabelText('Login')).toBe(screen.getByTestId('login-username'));
    expect(screen.getByLabelText('Password')).toBe(screen.getByTestId('login-password'));
    expect(document.title).toBe('Sign in | Acme SOC');
  });

  it('stores the tokens and opens the shell on success', async () => {
    const access = makeAccessToken();
    const fetchMock = mockFetch(baseRoutes({ [OBTAIN]: { body: { access, refresh: 'refresh-1' } } }));
    const { user, router } = renderApp('/incidents');
    await user.type(await screen.findByTestId('login-username'), '  ivanov ');
    await user.type(screen.getByTestId('login-password'), 'correct horse');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('shell-header')).toBeInTheDocument();
    expect(screen.getByTestId('profile-fullname')).toHaveTextContent('Ivan Ivanov');
    expect(router.state.location.pathname).toBe('/incidents');
    expect(JSON.parse(window.localStorage.getItem('auth') ?? 'null')).toEqual({
      access,
      refresh: 'refresh-1',
      tokenType: 'SOCPortal',
    });
    expect(callsTo(fetchMock, OBTAIN)[0]?.body).toEqual({ username: 'ivanov', password: 'correct horse' });
    expect(callsTo(fetchMock, 'GET /api/v0/auth/user/')[0]?.headers.get('Authorization')).toBe(
      `Bearer ${access}`,
    );
  });

  it('shows wrong credentials under the form, not as a notification', async () => {
    const detail = 'No active account found with the given credentials';
    mockFetch(baseRoutes({ [OBTAIN]: { status: 401, body: { detail } } }));
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'ivanov');
    await user.type(screen.getByTestId('login-password'), 'wrong');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('login-error')).toHaveTextContent(detail);
    expect(screen.queryByTestId('notification-error')).not.toBeInTheDocument();
    expect(screen.queryByTestId('shell-header')).not.toBeInTheDocument();
    expect(window.localStorage.getItem('auth')).toBeNull();
  });

  it('shows throttling with the wait from Retry-After', async () => {
    mockFetch(
      baseRoutes({
        [OBTAIN]: {
          status: 429,
          body: { detail: 'Too many failed attempts.' },
          headers: { 'Retry-After': '900' },
        },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'ivanov');
    await user.type(screen.getByTestId('login-password'), 'wrong');
    await user.click(screen.getByTestId('login-submit'));
    const error = await screen.findByTestId('login-error');
    expect(error).toHaveTextContent('Too many failed attempts.');
    expect(error).toHaveTextContent('Try again in 900 s.');
  });

  it('asks a user with a second factor for the PIN and signs in with it', async () => {
    const access = makeAccessToken();
    const fetchMock = mockFetch(
      baseRoutes({
        [OBTAIN]: { body: { mfa_token: 'mfa-1', generate_challenge_timeout: 60 } },
        [MFA_OBTAIN]: ({ body }) =>
          (body as { otp: string }).otp === '246810'
            ? { body: { access, refresh: 'refresh-1' } }
            : { status: 400, body: { otp: ['Invalid code'] } },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'petrov');
    await user.type(screen.getByTestId('login-password'), 'secret-pass');
    await user.click(screen.getByTestId('login-submit'));
    const pin = await screen.findByTestId('mfa-pin');
    expect(window.localStorage.getItem('auth')).toBeNull();
    expect(screen.getByTestId('mfa-resend')).toBeDisabled();
    expect(screen.getByTestId('mfa-resend')).toHaveTextContent(/New code in (1:00|0:59)/);

    await user.click(pin.querySelector('input')!);
    await user.keyboard('111111');
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Invalid code');
    expect(pin).toHaveAttribute('aria-invalid', 'true');

    await user.click(pin.querySelector('input')!);
    await user.keyboard('246810');
    expect(await screen.findByTestId('shell-header')).toBeInTheDocument();
    expect(callsTo(fetchMock, MFA_OBTAIN).map((c) => c.body)).toEqual([
      { mfa_token: 'mfa-1', otp: '111111' },
      { mfa_token: 'mfa-1', otp: '246810' },
    ]);
    expect(JSON.parse(window.localStorage.getItem('auth') ?? 'null')).toMatchObject({
      tokenType: 'SOCPortal',
    });
  });

  it('goes back to the password form on the new-token error (5 wrong PINs)', async () => {
    mockFetch(
      baseRoutes({
        [OBTAIN]: { body: { mfa_token: 'mfa-1', generate_challenge_timeout: 60 } },
        [MFA_OBTAIN]: { status: 400, body: { mfa_token: ['gone'] } },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'petrov');
    await user.type(screen.getByTestId('login-password'), 'secret-pass');
    await user.click(screen.getByTestId('login-submit'));
    await user.click((await screen.findByTestId('mfa-pin')).querySelector('input')!);
    await user.keyboard('123456');
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'The confirmation has expired. Please sign in again.',
    );
    expect(screen.queryByTestId('mfa-form')).not.toBeInTheDocument();
  });

  it('asks for the authenticator app code without a resend for TOTP users', async () => {
    mockFetch(
      baseRoutes({
        [OBTAIN]: { body: { mfa_token: 'mfa-1', generate_challenge_timeout: 0, method: 'totp' } },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'petrov');
    await user.type(screen.getByTestId('login-password'), 'secret-pass');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Enter the code from your authenticator app')).toBeInTheDocument();
    expect(screen.queryByTestId('mfa-resend')).not.toBeInTheDocument();
  });

  it('says when the code could not be sent', async () => {
    mockFetch(
      baseRoutes({
        [OBTAIN]: { status: 503, body: { mfa_token: ['The code could not be sent. Try again later.'] } },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'petrov');
    await user.type(screen.getByTestId('login-password'), 'secret-pass');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'The code could not be sent. Try again later.',
    );
    expect(screen.queryByTestId('mfa-form')).not.toBeInTheDocument();
  });

  it('cancels the second factor back to the password form, in Russian', async () => {
    await i18n.changeLanguage('ru');
    mockFetch(baseRoutes({ [OBTAIN]: { body: { mfa_token: 'mfa-1', generate_challenge_timeout: 0 } } }));
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'petrov');
    await user.type(screen.getByTestId('login-password'), 'secret-pass');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Введите код из SMS')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Отмена' }));
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(screen.queryByTestId('mfa-form')).not.toBeInTheDocument();
  });

  it('resends the code after the countdown and restarts it', async () => {
    const fetchMock = mockFetch(
      baseRoutes({
        [OBTAIN]: { body: { mfa_token: 'mfa-1', generate_challenge_timeout: 0 } },
        [MFA_CHALLENGE]: { body: { mfa_token: 'mfa-1', generate_challenge_timeout: 90 } },
      }),
    );
    const { user } = renderApp('/dashboard');
    await user.type(await screen.findByTestId('login-username'), 'petrov');
    await user.type(screen.getByTestId('login-password'), 'secret-pass');
    await user.click(screen.getByTestId('login-submit'));
    const resend = await screen.findByTestId('mfa-resend');
    await waitFor(() => expect(resend).toBeEnabled());
    await user.click(resend);
    await waitFor(() => expect(resend).toHaveTextContent(/New code in 1:(30|29)/));
    expect(resend).toBeDisabled();
    expect(callsTo(fetchMock, MFA_CHALLENGE).map((c) => c.body)).toEqual([{ mfa_token: 'mfa-1' }]);
  });

  it('offers OIDC providers under "Sign in with"', async () => {
    const provider = {
      client_id: 'portal',
      configuration_url: 'https://idp.example/.well-known',
      name: 'Corp IdP',
    };
    mockFetch(baseRoutes({ 'GET /api/v0/auth/oidc_providers/': { body: { results: [provider] } } }));
    renderApp('/dashboard');
    const group = await screen.findByTestId('oidc-providers');
    expect(within(group).getByText('Sign in with')).toBeInTheDocument();
    expect(within(group).getByRole('link', { name: 'Corp IdP' })).toHaveAttribute(
      'href',
      '/api/v0/auth/oidc/Corp%20IdP/start/?next=%2Fdashboard',
    );
  });

  it('offers corporate single sign-on when the deployment has it', async () => {
    mockFetch(
      baseRoutes({
        'GET /api/v0/portal/config/': { body: { ...portalConfig, sso_enabled: true } },
      }),
    );
    renderApp('/incidents');
    const sso = await screen.findByTestId('sso-login');
    expect(sso).toHaveTextContent('Corporate single sign-on');
    expect(sso).toHaveAttribute('href', '/api/v0/auth/sso/?next=%2Fincidents');
  });

  it('hides OIDC providers for brands with hide_oidc_buttons', async () => {
    const provider = {
      client_id: 'portal',
      configuration_url: 'https://idp.example/.well-known',
      name: 'Corp IdP',
    };
    const fetchMock = mockFetch(
      baseRoutes({
        'GET /api/v0/portal/config/': {
          body: { ...portalConfig, flags: { ...portalConfig.flags, hide_oidc_buttons: true } },
        },
        'GET /api/v0/auth/oidc_providers/': { body: { results: [provider] } },
      }),
    );
    renderApp('/dashboard');
    await screen.findByTestId('login-form');
    expect(screen.queryByTestId('oidc-providers')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/v0/auth/oidc_providers/')).toHaveLength(0);
  });
});
