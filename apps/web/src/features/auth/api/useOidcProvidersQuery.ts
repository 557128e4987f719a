import { OidcProviderSchema, resultsOf } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { authKeys } from './authKeys.ts';

const OidcProvidersSchema = resultsOf(OidcProviderSchema);

/**
 * Identity providers offered on the login screen (public). Silent on failure: the password
 * form still works without them.
 */
export function useOidcProvidersQuery(enabled: boolean) {
  return useQuery({
    queryKey: authKeys.oidcProviders(),
    queryFn: ({ signal }) =>
      apiRequest('/auth/oidc_providers/', {
        schema: OidcProvidersSchema,
        auth: 'none',
        notify: false,
        signal,
      }),
    select: (data) => data.results,
    enabled,
    staleTime: 10 * 60_000,
  });
}
