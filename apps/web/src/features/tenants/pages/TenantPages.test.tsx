import { SYSTEMS_TABLE_MIN_HEIGHT, type SystemCard, type SystemListItem } from '@soc/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const LIST = 'GET /api/v0/soc/systems/';
const FIRST_PAINT = { timeout: 15_000 };

const listItem = (id: number, isId: string): SystemListItem => ({
  id,
  is_id: isId,
  full_name: `System ${isId}`,
  status: 'active',
  services: ['Vision'],
  service_manager: null,
  dedicated_analyst: null,
});
const card = (id: number, isId: string): SystemCard => ({
  id,
  is_id: isId,
  full_name: `System ${isId}`,
  status: 'active',
  services: [],
  service_manager: null,
  service_manager_double: null,
  dedicated_analyst: null,
  dedicated_analyst_double: null,
  customer_contacts: [],
});
const page = <T,>(results: T[]) => ({ total: results.length, next: null, previous: null, results });

function open(path: string, routes: MockRoutes) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(baseRoutes(routes));
  return { ...renderApp(path), fetchMock };
}

describe('tenant card route', () => {
  it('opens the card by the id the customer sees (/tenants/IS-0003) as by the numeric id', async () => {
    const { fetchMock } = open('/tenants/IS-0003', {
      // the search is a substring match: the exact id must win over a longer one
      [LIST]: { body: page([listItem(31, 'IS-00031'), listItem(3, 'IS-0003')]) },
      'GET /api/v0/soc/systems/3/': { body: card(3, 'IS-0003') },
    });
    expect(await screen.findByTestId('tenant-title', {}, FIRST_PAINT)).toHaveTextContent('System IS-0003');
    expect(callsTo(fetchMock, LIST)[0]!.url.searchParams.get('is_id__icontains')).toBe('IS-0003');
  });

  it('says the system was not found when no system has that id', async () => {
    open('/tenants/is-9999', { [LIST]: { body: page([listItem(3, 'IS-0003')]) } });
    expect(await screen.findByTestId('tenant-not-found', {}, FIRST_PAINT)).toHaveTextContent(
      'The protected system was not found',
    );
  });
});

describe('tenants table', () => {
  it('keeps the visible table (header and rows) at least 600 px tall with a single system', async () => {
    open('/tenants', {
      [LIST]: { body: page([listItem(3, 'IS-0003')]) },
      'GET /api/v0/soc/systems/people/': { body: { results: [] } },
    });
    await screen.findByTestId('tenants-link', {}, FIRST_PAINT);
    // jsdom lays nothing out, so the check is on the box that holds the header and the rows
    const container = screen.getByTestId('tenants-table').querySelector<HTMLElement>('.ant-table-container');
    expect(SYSTEMS_TABLE_MIN_HEIGHT).toBeGreaterThanOrEqual(600);
    expect(container).toHaveStyle({ minHeight: `${SYSTEMS_TABLE_MIN_HEIGHT}px` });
  });
});
