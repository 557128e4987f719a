import { QueryClient } from '@tanstack/react-query';
import { authStore } from '@/shared/api/index.ts';
import { portalKeys } from '../../features/portal/index.ts';

/**
 * The app's query client. No automatic retries: the API client already renews tokens, and a
 * retry would repeat the error toast. On logout every cached answer except the public portal
 * config is dropped, so the next user never sees the previous one's data.
 */
export function createQueryClient(): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  authStore.subscribe(() => {
    if (authStore.get() !== null) return;
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== portalKeys.all[0] });
  });
  return queryClient;
}
