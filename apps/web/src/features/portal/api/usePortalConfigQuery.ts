import { PortalConfigSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { portalKeys } from './portalKeys.ts';

/**
 * Branding and flags of this deployment (public; needed before sign-in). Failures are silent:
 * the portal then runs with its built-in defaults.
 */
export function usePortalConfigQuery() {
  return useQuery({
    queryKey: portalKeys.config(),
    queryFn: ({ signal }) =>
      apiRequest('/portal/config/', { schema: PortalConfigSchema, auth: 'none', notify: false, signal }),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
