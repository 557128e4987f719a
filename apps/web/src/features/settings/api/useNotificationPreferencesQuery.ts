import { NotificationPreferencesResponseSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { settingsKeys } from './settingsKeys.ts';

/** GET /notifications/preferences/: the caller's notification e-mails. */
export function useNotificationPreferencesQuery() {
  return useQuery({
    queryKey: settingsKeys.notifications(),
    queryFn: ({ signal }) =>
      apiRequest('/notifications/preferences/', {
        schema: NotificationPreferencesResponseSchema,
        signal,
        notify: false,
      }),
  });
}
