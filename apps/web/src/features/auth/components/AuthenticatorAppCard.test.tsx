import { act, screen, within } from '@testing-library/react';
import { theme } from 'antd';
import { beforeEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { applyThemeMode } from '@/shared/theme/themeMode.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const STATUS = 'GET /api/v0/auth/mfa/';
const SETUP = 'POST /api/v0/auth/mfa/totp/setup/';
const CODE = 'POST /api/v0/auth/mfa/code/';
const CONFIRM = 'POST /api/v0/auth/mfa/totp/confirm/';
const DISABLE = 'POST /api/v0/auth/mfa/totp/disable/';
const WRONG_PASSWORD = 'Wrong password. The second factor was not changed.';
const KEY = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' };

/** Types a code into the six cells of an Input.OTP. */
async function typeCode(user: ReturnType<typeof renderApp>['user'], scope: HTMLElement, code: string) {
  await user.click(within(scope).getAllByRole('textbox')[0]!);
  await user.keyboard(code);
}

describe('AuthenticatorAppCard (profile)', () => {
  beforeEach(() => authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' }));

  it('sets the app up with the password and an SMS code, then takes the first code of the app', async () => {
    const fetchMock = mockFetch(
      baseRoutes({
        [STATUS]: { body: { sms: true, totp: false } },
        [CODE]: { body: { generate_challenge_timeout: 60 } },
        [SETUP]: ({ body }) =>
          (body as { password: string }).password === 'right-password'
            ? { body: KEY }
            : { status: 403, body: { detail: WRONG_PASSWORD } },
        [CONFIRM]: ({ body }) =>
          (body as { otp: string }).otp === '654321'
            ? { body: { sms: true, totp: true } }
            : { status: 400, body: { otp: ['Invalid code'] } },
      }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('totp-card');
    expect(await within(card).findByText(/code by SMS/)).toBeInTheDocument();
    await user.click(within(card).getByTestId('totp-setup-start'));
    const proof = await within(card).findByTestId('mfa-proof-form');
    expect(within(card).getByTestId('mfa-proof-submit')).toBeDisabled();
    await user.click(within(proof).getByTestId('mfa-send-code'));
    expect(await within(proof).findByText('Code sent')).toBeInTheDocument();
    await user.type(within(proof).getByTestId('totp-password'), 'nope');
    await typeCode(user, within(proof).getByTestId('totp-current-code'), '123456');
    await user.click(within(card).getByTestId('mfa-proof-submit'));
    expect(await within(card).findByTestId('mfa-proof-error')).toHaveTextContent(WRONG_PASSWORD);

    await user.clear(within(proof).getByTestId('totp-password'));
    await user.type(within(proof).getByTestId('totp-password'), 'right-password');
    await user.click(within(card).getByTestId('mfa-proof-submit'));
    expect(await within(card).findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(callsTo(fetchMock, SETUP).map((c) => c.body)).toEqual([
      { password: 'nope', otp: '123456' },
      { password: 'right-password', otp: '123456' },
    ]);
    expect(callsTo(fetchMock, CODE)).toHaveLength(1);

    await typeCode(user, card, '111111');
    expect(await within(card).findByRole('alert')).toHaveTextContent('Invalid code');
    await typeCode(user, card, '654321');
    expect(await within(card).findByTestId('totp-on')).toBeInTheDocument();
    expect(callsTo(fetchMock, CONFIRM).map((c) => c.body)).toEqual([{ otp: '111111' }, { otp: '654321' }]);
  });

  it('asks only for the password while no factor is on', async () => {
    const fetchMock = mockFetch(
      baseRoutes({ [STATUS]: { body: { sms: false, totp: false } }, [SETUP]: { body: KEY } }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('totp-card');
    await user.click(await within(card).findByTestId('totp-setup-start'));
    expect(within(card).queryByTestId('totp-current-code')).not.toBeInTheDocument();
    await user.type(within(card).getByTestId('totp-password'), 'right-password');
    await user.click(within(card).getByTestId('mfa-proof-submit'));
    expect(await within(card).findByTestId('totp-secret')).toBeInTheDocument();
    expect(callsTo(fetchMock, SETUP).map((c) => c.body)).toEqual([{ password: 'right-password' }]);
  });

  it.each(['light', 'dark'] as const)(
    'shows a QR code of the otpauth URI beside the key, dark on light in the %s theme',
    async (mode) => {
      applyThemeMode(mode);
      mockFetch(baseRoutes({ [STATUS]: { body: { sms: false, totp: false } }, [SETUP]: { body: KEY } }));
      const { user } = renderApp('/changepassword');
      const card = await screen.findByTestId('totp-card');
      await user.click(await within(card).findByTestId('totp-setup-start'));
      await user.type(within(card).getByTestId('totp-password'), 'right-password');
      await user.click(within(card).getByTestId('mfa-proof-submit'));
      const qr = await within(card).findByTestId('totp-qr');
      expect(qr).toHaveAttribute('data-otpauth', KEY.otpauth_url);
      expect(within(qr).getByRole('img', { name: 'QR code for the authenticator app' })).toBeInTheDocument();
      // scanners read dark modules on a light ground, so the dark theme must not invert the code
      const [ground, modules] = [...qr.querySelectorAll('svg path[d]')].map((p) => p.getAttribute('fill'));
      expect({ ground, modules }).toEqual({
        ground: theme.getDesignToken().colorBgContainer,
        modules: theme.getDesignToken().colorText,
      });
      expect(within(card).getByTestId('totp-secret')).toHaveTextContent(KEY.secret);

      await act(() => i18n.changeLanguage('ru'));
      expect(
        within(qr).getByRole('img', { name: 'QR-код для приложения-аутентификатора' }),
      ).toBeInTheDocument();
    },
  );

  it('turns the app off with the password and its current code, showing the server’s refusal', async () => {
    const fetchMock = mockFetch(
      baseRoutes({
        [STATUS]: { body: { sms: false, totp: true } },
        [DISABLE]: ({ body }) =>
          (body as { password: string }).password === 'right-password'
            ? { body: { sms: false, totp: false } }
            : { status: 403, body: { detail: WRONG_PASSWORD } },
      }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('totp-card');
    expect(await within(card).findByTestId('totp-replace')).toBeInTheDocument();
    await user.click(within(card).getByTestId('totp-disable'));
    expect(within(card).queryByTestId('mfa-send-code')).not.toBeInTheDocument();
    await user.type(within(card).getByTestId('totp-password'), 'nope');
    await typeCode(user, within(card).getByTestId('totp-current-code'), '222333');
    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    expect(await within(card).findByTestId('mfa-proof-error')).toHaveTextContent(WRONG_PASSWORD);
    await user.clear(within(card).getByTestId('totp-password'));
    await user.type(within(card).getByTestId('totp-password'), 'right-password');
    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    expect(await within(card).findByTestId('totp-setup-start')).toBeInTheDocument();
    expect(callsTo(fetchMock, DISABLE).map((c) => c.body)).toEqual([
      { password: 'nope', otp: '222333' },
      { password: 'right-password', otp: '222333' },
    ]);
  });
});
