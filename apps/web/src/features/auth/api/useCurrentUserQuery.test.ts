import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/index.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { makeAccessToken } from '../../../test/tokens.ts';
import { authKeys } from './authKeys.ts';
import { prefetchCurrentUser } from './useCurrentUserQuery.ts';

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
