import { CurrentUserSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest, useIsAuthenticated } from '@/shared/api/index.ts';
import { authKeys } from './authKeys.ts';

/** The signed-in user (GET /auth/user/); idle while logged out. */
export function useCurrentUserQuery() {
  const { t } = useTranslation();
  const isAuthenticated = useIsAuthenticated();
  return useQuery({
    queryKey: authKeys.user(),
    queryFn: ({ signal }) =>
      apiRequest('/auth/user/', {
        schema: CurrentUserSchema,
        signal,
        errorMessage: t('auth.user.loadFailed'),
      }),
    enabled: isAuthenticated,
    staleTime: 5 * 60_000,
  });
}
