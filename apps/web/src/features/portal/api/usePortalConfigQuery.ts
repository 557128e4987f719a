import { PortalConfigSchema } from '@soc/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { portalKeys } from './portalKeys.ts';

/**
 * Branding and flags of this deployment (public; needed before sign-in). Failures are silent:
 * the portal then runs with its built-in defaults.
 */
const portalConfigQuery = queryOptions({
  queryKey: portalKeys.config(),
  queryFn: ({ signal }) =>
    apiRequest('/portal/config/', { schema: PortalConfigSchema, auth: 'none', notify: false, signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});

export function usePortalConfigQuery() {
  return useQuery(portalConfigQuery);
}

/** Asks for the config before the app renders (main.tsx), so that nothing waits for a render first. */
export function prefetchPortalConfig(client: QueryClient): void {
  void client.prefetchQuery(portalConfigQuery);
}
