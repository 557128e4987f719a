import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const CHANGE = 'PUT /api/v0/auth/password_change/';

async function openPage(routes: MockRoutes = {}) {
  const fetchMock = mockFetch(baseRoutes(routes));
  const app = renderApp('/changepassword');
  await screen.findByTestId('cp-old');
  return { ...app, fetchMock };
}

describe('ChangePasswordPage', () => {
  beforeEach(() => authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' }));

  it('is the security page: one heading over the password, second-factor and token cards', async () => {
    await openPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Security');
    expect(screen.getByRole('heading', { level: 2, name: 'Change password' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Security \| /));
    // the cards share one width (the tokens card was wider than the others)
    const cards = [
      screen.getByTestId('cp-old').closest<HTMLElement>('.ant-card')!,
      screen.getByTestId('totp-card'),
      screen.getByTestId('api-tokens-card'),
    ];
    const widths = cards.map((card) => card.style.maxWidth);
    expect(widths[0]).not.toBe('');
    expect(new Set(widths).size).toBe(1);
  });

  it('requires every field', async () => {
    const { user, fetchMock } = await openPage();
    await user.click(screen.getByTestId('cp-submit'));
    await waitFor(() => expect(screen.getAllByText('This field is required')).toHaveLength(3));
    expect(callsTo(fetchMock, CHANGE)).toHaveLength(0);
  });

  it('checks length, digits-only and the confirmation', async () => {
    const { user } = await openPage();
    await user.type(screen.getByTestId('cp-new'), '12345');
    expect(await screen.findByText('Minimum password length is 9')).toBeInTheDocument();
    await user.type(screen.getByTestId('cp-new'), '67890');
    expect(await screen.findByText('Password should be not entirely numeric')).toBeInTheDocument();
    await user.type(screen.getByTestId('cp-confirm'), 'something else');
    expect(await screen.findByText('Must match')).toBeInTheDocument();
  });

  it('shows the rules in Russian', async () => {
    await i18n.changeLanguage('ru');
    const { user } = await openPage();
    await user.type(screen.getByTestId('cp-new'), '1234');
    expect(await screen.findByText('Минимальная длина пароля — 9 символов')).toBeInTheDocument();
    await user.clear(screen.getByTestId('cp-new'));
    await user.type(screen.getByTestId('cp-new'), '1234567890');
    expect(await screen.findByText('Пароль не может состоять только из цифр')).toBeInTheDocument();
    await user.type(screen.getByTestId('cp-confirm'), 'x');
    expect(await screen.findByText('Пароли должны совпадать')).toBeInTheDocument();
    await user.click(screen.getByTestId('cp-submit'));
    expect(await screen.findByText('Это поле обязательно к заполнению')).toBeInTheDocument();
  });

  it('puts the server old_password error on the old-password field', async () => {
    const message = 'Your old password was entered incorrectly. Please enter it again.';
    const { user } = await openPage({ [CHANGE]: { status: 400, body: { old_password: [message] } } });
    await user.type(screen.getByTestId('cp-old'), 'not-my-password');
    await user.type(screen.getByTestId('cp-new'), 'new-password-1');
    await user.type(screen.getByTestId('cp-confirm'), 'new-password-1');
    await user.click(screen.getByTestId('cp-submit'));

    const error = await screen.findByText(message);
    expect(error.closest('.ant-form-item')).toContainElement(screen.getByTestId('cp-old'));
    expect(screen.getByTestId('cp-old')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('notification-error')).not.toBeInTheDocument();
  });

  it('puts the server’s password-policy message under the new-password field', async () => {
    const message = 'The password must not contain your login, name or e-mail address';
    const { user } = await openPage({ [CHANGE]: { status: 400, body: { password: [message] } } });
    await user.type(screen.getByTestId('cp-old'), 'old-password-1');
    await user.type(screen.getByTestId('cp-new'), 'alice-2026-x');
    await user.type(screen.getByTestId('cp-confirm'), 'alice-2026-x');
    await user.click(screen.getByTestId('cp-submit'));

    const error = await screen.findByText(message);
    expect(error.closest('.ant-form-item')).toContainElement(screen.getByTestId('cp-new'));
    expect(authStore.get()).not.toBeNull();
  });

  it('shows non-field server errors above the buttons', async () => {
    const { user } = await openPage({
      [CHANGE]: {
        status: 400,
        body: { non_field_errors: ['The new password must differ from the old one'] },
      },
    });
    await user.type(screen.getByTestId('cp-old'), 'same-password-1');
    await user.type(screen.getByTestId('cp-new'), 'same-password-1');
    await user.type(screen.getByTestId('cp-confirm'), 'same-password-1');
    await user.click(screen.getByTestId('cp-submit'));
    expect(await screen.findByTestId('cp-form-error')).toHaveTextContent(
      'The new password must differ from the old one',
    );
  });

  it('says that a change signs out everywhere and revokes the API tokens, in en and ru', async () => {
    await openPage();
    expect(screen.getByTestId('cp-sign-out-notice')).toHaveTextContent(
      'Changing the password signs you out on every device, this one included, and revokes all your personal API tokens.',
    );
    await i18n.changeLanguage('ru');
    await waitFor(() =>
      expect(screen.getByTestId('cp-sign-out-notice')).toHaveTextContent(
        'все ваши сеансы, включая этот, будут завершены на всех устройствах, а все личные API-токены отозваны',
      ),
    );
  });

  it('sends the change, confirms it and asks to sign in again (the server ended every session)', async () => {
    const { user, router, fetchMock } = await openPage({
      [CHANGE]: { body: { detail: 'Password changed' } },
    });
    await user.type(screen.getByTestId('cp-old'), 'old-password-1');
    await user.type(screen.getByTestId('cp-new'), 'new-password-1');
    await user.type(screen.getByTestId('cp-confirm'), 'new-password-1');
    await user.click(screen.getByTestId('cp-submit'));

    expect(await screen.findByTestId('notification-success')).toHaveTextContent(
      'Password changed. Sign in with the new password.',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(authStore.get()).toBeNull();
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(callsTo(fetchMock, CHANGE)[0]?.body).toEqual({
      old_password: 'old-password-1',
      password: 'new-password-1',
      confirmed_password: 'new-password-1',
    });
  });

  it('cancels to the dashboard when there is no page to go back to', async () => {
    const { user, router } = await openPage();
    await user.click(screen.getByTestId('cp-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('cancels back to the previous page', async () => {
    const { user, router } = await openPage();
    await router.navigate('/misconfigs');
    await screen.findByTestId('misconfigs-page');
    await router.navigate('/changepassword');
    await user.click(await screen.findByTestId('cp-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/misconfigs'));
  });

  it('reports other failures as a notification', async () => {
    const { user } = await openPage({ [CHANGE]: { status: 500, body: { detail: 'Internal server error' } } });
    await user.type(screen.getByTestId('cp-old'), 'old-password-1');
    await user.type(screen.getByTestId('cp-new'), 'new-password-1');
    await user.type(screen.getByTestId('cp-confirm'), 'new-password-1');
    await user.click(screen.getByTestId('cp-submit'));
    const toast = await screen.findByTestId('notification-error');
    expect(toast).toHaveTextContent('Could not change the password');
    expect(toast).toHaveTextContent('Internal server error');
  });
});
