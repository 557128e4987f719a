import type { AuditEntry } from '@soc/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../shared/api/authStore.ts';
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

describe('AuditLogPage', () => {
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
