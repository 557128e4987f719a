import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/index.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes, staffUser } from '../../../test/fixtures.ts';
import { makeAccessToken } from '../../../test/tokens.ts';
import { authKeys } from './authKeys.ts';
import { prefetchCurrentUser, useIsStaff } from './useCurrentUserQuery.ts';

describe('prefetchCurrentUser', () => {
  it('asks for the user of a restored session into the cache the auth gate reads', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    const fetchMock = mockFetch(baseRoutes());
    const client = new QueryClient();
    prefetchCurrentUser(client);
    await waitFor(() => expect(client.getQueryData(authKeys.user())).toMatchObject({ username: 'ivanov' }));
    expect(callsTo(fetchMock, 'GET /api/v0/auth/user/')).toHaveLength(1);
  });

  it('asks for nothing without a session', () => {
    authStore.clear();
    const fetchMock = mockFetch(baseRoutes());
    prefetchCurrentUser(new QueryClient());
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('useIsStaff', () => {
  const render = () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    return renderHook(() => useIsStaff(), { wrapper });
  };

  it('is undefined while the user loads, then false for a customer', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes());
    const { result } = render();
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(result.current).toBe(false));
  });

  it('is true for a user whose permissions hold the staff area', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes({ 'GET /api/v0/auth/user/': { body: staffUser } }));
    const { result } = render();
    await waitFor(() => expect(result.current).toBe(true));
  });
});
