import type { AuditEntry } from '@soc/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
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
  object_name: null,
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

  it('names subjects by the name the server gives, and deleted ones by kind and id', async () => {
    openWith([
      entry(4, {
        user: olga,
        action: 'user.reset_mfa',
        object_type: 'user',
        object_id: '12',
        object_name: 'Ivan Orlov',
      }),
      entry(3, { user: olga, action: 'user.reset_mfa', object_type: 'user', object_id: '13' }),
      entry(2, {
        user: olga,
        action: 'token.revoke',
        object_type: 'service_token',
        object_id: '0b7e2b4e-3f7c-4d0e-9c55-0a8f8f1d2c3b',
        object_name: 'SIEM export',
      }),
      entry(1, {
        user: olga,
        action: 'incident.comment',
        object_type: 'incident',
        object_id: '10042',
        object_name: 'Brute force on the VPN',
      }),
    ]);
    const table = await screen.findByTestId('audit-table');
    await within(table).findByText('Token revoked');
    const subjects = () =>
      Array.from(table.querySelectorAll<HTMLElement>('tr[data-row-key]')).map(
        (row) => row.querySelectorAll('td')[3]!.textContent,
      );
    expect(subjects()).toEqual([
      'User: Ivan Orlov',
      'User #13',
      'API token: SIEM export',
      'Incident 10042: Brute force on the VPN',
    ]);
    expect(
      within(table).getByRole('link', { name: 'Incident 10042: Brute force on the VPN' }),
    ).toHaveAttribute('href', '/inc/10042');

    await i18n.changeLanguage('ru');
    await within(table).findByText('Токен отозван');
    expect(subjects()).toEqual([
      'Пользователь: Ivan Orlov',
      'Пользователь № 13',
      'API-токен: SIEM export',
      'Инцидент 10042: Brute force on the VPN',
    ]);
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
