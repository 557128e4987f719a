import { NotificationPreferencesResponseSchema } from '@soc/contracts';
import type { NotificationPreferences } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { settingsKeys } from './settingsKeys.ts';

/** PUT /notifications/preferences/; the answer replaces the cached preferences. */
export function useSaveNotificationPreferencesMutation() {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (preferences: NotificationPreferences) =>
      apiRequest('/notifications/preferences/', {
        method: 'PUT',
        body: preferences,
        schema: NotificationPreferencesResponseSchema,
        errorMessage: t('settings.notifications.saveFailed'),
      }),
    onSuccess: (saved) => client.setQueryData(settingsKeys.notifications(), saved),
  });
}
