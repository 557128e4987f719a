import type { AuditEntry } from '@soc/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '../../../shared/api/authStore.ts';
import { i18n } from '../../../shared/i18n/i18n.ts';
import { mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const entry = (id: number, over: Partial<AuditEntry>): AuditEntry => ({
  id,
  at: Date.UTC(2026, 10, 25, 12, 0),
  user: null,
  action: 'incident.update',
  object_type: 'incident',
  object_id: '10042',
  ip: '',
  user_agent: '',
  ...over,
});

function openWith(results: AuditEntry[]) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  mockFetch(
    baseRoutes({
      'GET /api/v0/audit/': { body: { total: results.length, next: null, previous: null, results } },
    }),
  );
  renderApp('/profile/audit');
}

const olga = { id: 7, username: 'ivanov', full_name: 'Olga Petrova', role: 'customer' };

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('AuditLogPage', () => {
  it('names actions in words, in English and in Russian', async () => {
    const rows = [
      entry(3, { user: olga, action: 'auth.login', object_type: 'user', object_id: '7' }),
      entry(2, { user: olga, action: 'token.revoke', object_type: 'service_token', object_id: '4' }),
      entry(1, { user: olga, action: 'alert.bulk.take_in_work', object_type: 'alert', object_id: '' }),
    ];
    openWith(rows);
    const table = await screen.findByTestId('audit-table');
    expect(await within(table).findByText('Signed in')).toBeInTheDocument();
    expect(within(table).getByText('Token revoked')).toBeInTheDocument();
    expect(within(table).getByText('Alerts taken into work')).toBeInTheDocument();
    expect(table).not.toHaveTextContent('auth.login');

    await i18n.changeLanguage('ru');
    expect(await within(table).findByText('Вход в систему')).toBeInTheDocument();
    expect(within(table).getByText('Токен отозван')).toBeInTheDocument();
  });

  it('shows an action the interface does not know by its code rather than hiding it', async () => {
    openWith([entry(1, { action: 'future.thing' })]);
    expect(await screen.findByText('future.thing')).toBeInTheDocument();
  });

  it('names subjects by what they are and, for users the list knows, by name', async () => {
    openWith([
      entry(3, { user: olga, action: 'auth.login', object_type: 'user', object_id: '7' }),
      entry(2, { user: olga, action: 'user.reset_mfa', object_type: 'user', object_id: '12' }),
      entry(1, { user: olga, action: 'incident.comment', object_type: 'incident', object_id: '10042' }),
    ]);
    const table = await screen.findByTestId('audit-table');
    await within(table).findByText('Signed in');
    const [signIn, reset, comment] = Array.from(table.querySelectorAll<HTMLElement>('tr[data-row-key]'));
    expect(signIn!.querySelectorAll('td')[3]).toHaveTextContent('Olga Petrova');
    expect(table).not.toHaveTextContent('user 7');
    // a user the page knows only by id is still named as a user, not a table name
    expect(reset!.querySelectorAll('td')[3]).toHaveTextContent('User #12');
    expect(within(comment!).getByRole('link', { name: 'Incident 10042' })).toHaveAttribute(
      'href',
      '/inc/10042',
    );
  });

  it("marks the provider's staff and shows a dash where the server hides their address", async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(
      baseRoutes({
        'GET /api/v0/audit/': {
          body: {
            total: 2,
            next: null,
            previous: null,
            results: [
              entry(2, { user: { id: 3, username: 'analyst', full_name: 'Anna Analyst', role: 'analyst' } }),
              entry(1, {
                user: { id: 7, username: 'ivanov', full_name: 'Olga Petrova', role: 'customer' },
                action: 'incident.comment',
                ip: '10.20.30.40',
              }),
            ],
          },
        },
      }),
    );
    renderApp('/profile/audit');
    const staffRow = (await screen.findByText('Anna Analyst')).closest('tr')!;
    expect(within(staffRow).getByTestId('audit-staff')).toHaveTextContent('SOC staff');
    expect(staffRow).toHaveTextContent('—');
    const ownRow = screen.getByText('Olga Petrova').closest('tr')!;
    expect(within(ownRow).queryByTestId('audit-staff')).not.toBeInTheDocument();
    expect(ownRow).toHaveTextContent('10.20.30.40');
  });
});
