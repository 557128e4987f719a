import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Analytics, MitreMatrix } from '@soc/contracts';
import { dashboardKeys } from '../api/dashboardQueries.ts';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { appQueryClient, renderApp } from '../../../test/renderApp.tsx';
import { prefetchPage } from './DashboardPage.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const MATRIX = 'GET /api/v0/soc/mitre_matrix/';
const ANALYTICS = 'GET /api/v0/soc/incs/analytics/';

/** The answer of ?description=false: names without MITRE's texts. */
const namesOnly: MitreMatrix = {
  available: true,
  version: '18.1',
  tactics: [{ id: 'TA0006', name: 'Credential Access', short_name: 'credential-access', is_hidden: false }],
  techniques: [
    {
      technique_id: 'T1110',
      name: 'Brute Force',
      url: 'https://attack.mitre.org/techniques/T1110',
      tactics: ['credential-access'],
      sub_techniques: [],
      is_subtechnique: false,
      is_revoked: false,
      is_deprecated: false,
    },
  ],
  notice: '© The MITRE Corporation.',
};

describe('dashboard: the ATT&CK matrix', () => {
  it('asks for the names only, once, and takes that answer', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    const fetchMock = mockFetch(baseRoutes({ [MATRIX]: { body: namesOnly } }));
    const { queryClient } = renderApp('/dashboard');

    await waitFor(() => expect(callsTo(fetchMock, MATRIX)).toHaveLength(1));
    const [request] = callsTo(fetchMock, MATRIX);
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({ description: 'false' });
    // the shared schema (checked by apiRequest) takes the answer without descriptions
    await waitFor(() => expect(queryClient.getQueryState(dashboardKeys.mitre())?.status).toBe('success'));
    expect(queryClient.getQueryData(dashboardKeys.mitre())).toEqual(namesOnly);
  });
});

describe('dashboard: header', () => {
  it('says why "Add widget" is disabled when every widget is shown', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes({ [MATRIX]: { body: namesOnly } }));
    const { user } = renderApp('/dashboard');
    const button = await screen.findByTestId('dashboard-add-widget', {}, { timeout: 15_000 });
    // the default layout shows every widget
    expect(button).toBeDisabled();
    await user.hover(screen.getByTestId('dashboard-add-widget-wrap'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Every widget is already on the dashboard.');
  });
});

describe('dashboard: a full load', () => {
  it('shows the key figures its preload asked for, without asking again', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    const figures: Analytics = {
      count: 4321,
      critical_count: 5,
      waiting_for_customer: 7,
      sla_breached: 1.5,
      sla_breached_count: 2,
      previous: null,
      eps: { average: 0, contracted: 0, max: 0 },
      ...{ mitre: [], tactics: [], priority: [], status: [], category: [], top_domains: [], top_ips: [] },
      timeline: [],
    };
    const fetchMock = mockFetch(
      baseRoutes({ [MATRIX]: { body: namesOnly }, [ANALYTICS]: { body: figures } }),
    );
    const client = appQueryClient();
    // what app/router/routes.tsx does once the page's chunk has arrived
    prefetchPage(client, new URL('http://localhost/dashboard'));
    await waitFor(() => expect(callsTo(fetchMock, ANALYTICS)).toHaveLength(1));
    renderApp('/dashboard', client);
    expect(await screen.findByTestId('factoid-count')).toHaveTextContent('4,321');
    // a key that differed from the page's (period, language) would have sent a second request
    expect(callsTo(fetchMock, ANALYTICS)).toHaveLength(1);
  });
});
