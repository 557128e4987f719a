import type { LiveEvent } from '@soc/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyWarning } from '@/shared/ui/notifications.tsx';
import { useCurrentUserQuery } from '../../auth/index.ts';
import { useLiveEvents } from '../hooks/useLiveEvents.ts';
import { rememberOwnIncident } from '../hooks/ownIncidents.ts';

/**
 * The shell's live-update subscription: refreshes lists and shows the 'new incident' warning
 * toast (product §A4) as soon as the incident is registered, on every page. The key matches the
 * dashboard's poll, so the same incident never shows twice. The user who registered the
 * incident is not warned of it: they know.
 */
export type LiveUpdatesProps = {
  /** The user's notification centre changed (`inbox.updated`), or the stream reopened. */
  onInboxUpdated?: () => void;
};

export function LiveUpdates({ onInboxUpdated }: LiveUpdatesProps) {
  const { t } = useTranslation();
  const userId = useCurrentUserQuery().data?.id;
  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (event.type !== 'incident.created' || event.key === null) return;
      if (event.reporter_id !== null && event.reporter_id === userId) {
        rememberOwnIncident(event.key);
        return;
      }
      notifyWarning({
        title: t('dashboard.newIncident', { key: event.key }),
        description: t('dashboard.newIncidentText', { summary: event.summary ?? '' }),
        key: `new-incident-${event.key}`,
      });
    },
    [t, userId],
  );
  useLiveEvents(onEvent, onInboxUpdated);
  return null;
}
