import { MfaStatusSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { authKeys } from './authKeys.ts';

/** The signed-in user's second factors (GET /auth/mfa/). */
export function useMfaStatusQuery() {
  return useQuery({
    queryKey: authKeys.mfa(),
    queryFn: ({ signal }) => apiRequest('/auth/mfa/', { schema: MfaStatusSchema, signal, notify: false }),
  });
}
