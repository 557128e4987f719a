import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { authStore } from '../../../shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const STATUS = 'GET /api/v0/auth/mfa/';
const SETUP = 'POST /api/v0/auth/mfa/totp/setup/';
const CONFIRM = 'POST /api/v0/auth/mfa/totp/confirm/';
const DISABLE = 'POST /api/v0/auth/mfa/totp/disable/';

describe('AuthenticatorAppCard (profile)', () => {
  beforeEach(() => authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' }));

  it('sets the app up: shows the key, takes the first code, then says it is on', async () => {
    const fetchMock = mockFetch(
      baseRoutes({
        [STATUS]: { body: { sms: true, totp: false } },
        [SETUP]: {
          body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' },
        },
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
    expect(await within(card).findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');

    await user.click(within(card).getAllByRole('textbox')[0]!);
    await user.keyboard('111111');
    expect(await within(card).findByRole('alert')).toHaveTextContent('Invalid code');
    await user.click(within(card).getAllByRole('textbox')[0]!);
    await user.keyboard('654321');
    expect(await within(card).findByTestId('totp-on')).toBeInTheDocument();
    expect(callsTo(fetchMock, CONFIRM).map((c) => c.body)).toEqual([{ otp: '111111' }, { otp: '654321' }]);
  });

  it('turns the app off with the password', async () => {
    const fetchMock = mockFetch(
      baseRoutes({
        [STATUS]: { body: { sms: false, totp: true } },
        [DISABLE]: ({ body }) =>
          (body as { password: string }).password === 'right-password'
            ? { body: { sms: false, totp: false } }
            : { status: 400, body: { password: ['wrong'] } },
      }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('totp-card');
    await user.click(await within(card).findByTestId('totp-disable'));
    await user.type(within(card).getByTestId('totp-password'), 'nope');
    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    expect(await within(card).findByText('Wrong password')).toBeInTheDocument();
    await user.clear(within(card).getByTestId('totp-password'));
    await user.type(within(card).getByTestId('totp-password'), 'right-password');
    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    expect(await within(card).findByTestId('totp-setup-start')).toBeInTheDocument();
    expect(callsTo(fetchMock, DISABLE)).toHaveLength(2);
  });
});
