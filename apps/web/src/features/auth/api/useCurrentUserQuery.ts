import { CurrentUserSchema } from '@soc/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest, authStore, useIsAuthenticated } from '@/shared/api/index.ts';
import { authKeys } from './authKeys.ts';

/** GET /auth/user/; without an error message a failure is not announced (the auth gate shows it). */
const currentUserQuery = (errorMessage?: string) =>
  queryOptions({
    queryKey: authKeys.user(),
    queryFn: ({ signal }) =>
      apiRequest('/auth/user/', {
        schema: CurrentUserSchema,
        signal,
        ...(errorMessage === undefined ? { notify: false } : { errorMessage }),
      }),
    staleTime: 5 * 60_000,
  });

/** The signed-in user (GET /auth/user/); idle while logged out. */
export function useCurrentUserQuery() {
  const { t } = useTranslation();
  const isAuthenticated = useIsAuthenticated();
  return useQuery({ ...currentUserQuery(t('auth.user.loadFailed')), enabled: isAuthenticated });
}

/**
 * Asks for the user record of a restored session before the app renders (main.tsx): the shell
 * and the page no longer wait for the config, the language pack and a render to ask for it.
 */
export function prefetchCurrentUser(client: QueryClient): void {
  if (authStore.get() !== null) void client.prefetchQuery(currentUserQuery());
}

/** The permission by which the server tells the web app that the user is provider staff. */
export const STAFF_PERMISSION = 'soc.workspace';

/**
 * Whether the signed-in user is provider staff (roles analyst and admin), who get the staff
 * area (design §9); undefined while the user record loads. The server refuses the staff routes
 * to customers whatever the web app shows.
 */
export function useIsStaff(): boolean | undefined {
  return useHasPermission(STAFF_PERMISSION);
}

/** Whether the signed-in user's role carries `code` (GET /auth/user/); undefined while it loads. */
export function useHasPermission(code: string): boolean | undefined {
  const user = useCurrentUserQuery().data;
  return user === undefined ? undefined : user.permissions.includes(code);
}
