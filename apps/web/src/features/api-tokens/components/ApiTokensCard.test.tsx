import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiToken } from '@soc/contracts';
import dayjs from 'dayjs';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const LIST = 'GET /api/v0/auth/tokens/';
const CREATE = 'POST /api/v0/auth/tokens/';
const REVOKE = 'DELETE /api/v0/auth/tokens/3f0c8a56-1b2d-4c3e-9f4a-5b6c7d8e9f00/';

const existing: ApiToken = {
  id: '3f0c8a56-1b2d-4c3e-9f4a-5b6c7d8e9f00',
  name: 'nightly export',
  kind: 'personal',
  prefix: 'socp_AbCdEfG',
  user: { id: 1, username: 'alice' },
  role: 'customer',
  systems: [],
  read_only: true,
  expires_at: '2027-02-01T20:59:59.999Z',
  last_used_at: '2026-11-20T08:30:00.000Z',
  last_used_ip: '10.0.0.5',
  revoked_at: null,
  created_at: '2026-11-01T10:00:00.000Z',
};
const page = (results: ApiToken[]) => ({ total: results.length, next: null, previous: null, results });

describe('ApiTokensCard (profile)', () => {
  beforeEach(() => authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' }));

  it('lists tokens with their last use, creates one and shows its secret once', async () => {
    let tokens = [existing];
    const fetchMock = mockFetch(
      baseRoutes({
        [LIST]: () => ({ body: page(tokens) }),
        [CREATE]: ({ body }) => {
          const name = (body as { name: string }).name;
          if (name === 'taken') return { status: 400, body: { name: ['Choose another name.'] } };
          const created = {
            ...existing,
            id: 'a1b2c3d4-0000-4000-8000-000000000001',
            name,
            last_used_at: null,
          };
          tokens = [created, ...tokens];
          return { status: 201, body: { ...created, token: 'socp_secret-value-shown-once' } };
        },
      }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('api-tokens-card');
    const table = await within(card).findByTestId('api-tokens-table');
    expect(await within(table).findByText('nightly export')).toBeInTheDocument();
    expect(within(table).getByText('socp_AbCdEfG…')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Expires' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Last used' })).toBeInTheDocument();
    expect(within(table).queryByText('Never')).not.toBeInTheDocument();

    // the name and the password are required, server field errors show under the field
    await user.click(within(card).getByTestId('api-token-create'));
    expect(await within(card).findByText('Enter a name')).toBeInTheDocument();
    expect(await within(card).findByText('Enter your current password')).toBeInTheDocument();
    await user.type(within(card).getByTestId('api-token-password'), 'my-Password-42');
    await user.type(within(card).getByTestId('api-token-name'), 'taken');
    await user.click(within(card).getByTestId('api-token-create'));
    expect(await within(card).findByText('Choose another name.')).toBeInTheDocument();

    await user.clear(within(card).getByTestId('api-token-name'));
    await user.type(within(card).getByTestId('api-token-name'), 'siem pull');
    await user.clear(within(card).getByTestId('api-token-password'));
    await user.type(within(card).getByTestId('api-token-password'), 'my-Password-42');
    await user.click(within(card).getByTestId('api-token-create'));
    const secret = await within(card).findByTestId('api-token-secret');
    expect(secret).toHaveTextContent('socp_secret-value-shown-once');
    expect(secret).toHaveTextContent('it will not be shown again');
    expect(await within(table).findByText('siem pull')).toBeInTheDocument();
    expect(within(table).getByText('Not used yet')).toBeInTheDocument();
    // by default the token expires at the end of the day 90 days ahead
    const expiresAt = dayjs().add(90, 'day').endOf('day').toISOString();
    expect(callsTo(fetchMock, CREATE).map((c) => c.body)).toEqual([
      { name: 'taken', password: 'my-Password-42', expires_at: expiresAt },
      { name: 'siem pull', password: 'my-Password-42', expires_at: expiresAt },
    ]);

    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    expect(within(card).queryByTestId('api-token-secret')).not.toBeInTheDocument();
    expect(within(card).queryByText('socp_secret-value-shown-once')).not.toBeInTheDocument();
  });

  it('shows a wrong password under the password field and creates nothing', async () => {
    const detail = 'The password is incorrect. The token was not created.';
    mockFetch(
      baseRoutes({
        [LIST]: () => ({ body: page([]) }),
        [CREATE]: { status: 403, body: { detail } },
      }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('api-tokens-card');
    await user.type(within(card).getByTestId('api-token-name'), 'siem pull');
    await user.type(within(card).getByTestId('api-token-password'), 'not-my-password');
    await user.click(within(card).getByTestId('api-token-create'));
    const error = await within(card).findByText(detail);
    expect(error.closest('.ant-form-item')).toContainElement(within(card).getByTestId('api-token-password'));
    expect(within(card).getByTestId('api-token-password')).toHaveValue('');
    expect(within(card).queryByTestId('api-token-secret')).not.toBeInTheDocument();
  });

  it('revokes a token after confirmation', async () => {
    let tokens = [existing];
    const fetchMock = mockFetch(
      baseRoutes({
        [LIST]: () => ({ body: page(tokens) }),
        [REVOKE]: () => {
          tokens = [];
          return { status: 204 };
        },
      }),
    );
    const { user } = renderApp('/changepassword');
    const card = await screen.findByTestId('api-tokens-card');
    await user.click(await within(card).findByTestId(`revoke-${existing.id}`));
    expect(await screen.findByText(/Revoke the token "nightly export"\?/)).toBeInTheDocument();
    // the confirmation's button is rendered after the row's one, in the popover at the end of the page
    const buttons = screen.getAllByRole('button', { name: 'Revoke' });
    await user.click(buttons[buttons.length - 1]!);
    expect(await within(card).findByText('No tokens')).toBeInTheDocument();
    expect(callsTo(fetchMock, REVOKE)).toHaveLength(1);
  });

  it('shows the load failure with a retry', async () => {
    mockFetch(baseRoutes({ [LIST]: { status: 500, body: { detail: 'boom' } } }));
    renderApp('/changepassword');
    const card = await screen.findByTestId('api-tokens-card');
    expect(await within(card).findByText('Could not load your API tokens')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
