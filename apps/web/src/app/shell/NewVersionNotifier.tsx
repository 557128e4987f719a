import { Button, Flex } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotificationApi } from '@/shared/ui/notifications.tsx';
import { useNewVersionAvailable } from '@/shared/version/versionCheck.ts';

const NOTIFICATION_KEY = 'new-version';

/** Into the new build: through the service worker when one runs (it must hand over first). */
const reload = () =>
  void import('@/shared/version/serviceWorker.ts').then(
    (sw) => sw.reloadToNewVersion(),
    () => window.location.reload(),
  );

/** A persistent toast once a new build is deployed: reload, or read the changelog first. */
export function NewVersionNotifier() {
  const { t } = useTranslation();
  const notification = useNotificationApi();
  const manifest = useNewVersionAvailable();

  useEffect(() => {
    if (!manifest) return;
    // Same key: a language switch re-renders the open toast instead of adding a second one.
    notification.info({
      key: NOTIFICATION_KEY,
      title: t('version.available'),
      description: t('version.description'),
      duration: false,
      props: { 'data-testid': 'new-version-notification' },
      actions: (
        <Flex gap="small" justify="center">
          <Button type="link" href="/CHANGELOG.md" target="_blank" rel="noopener noreferrer">
            {t('version.whatsNew')}
          </Button>
          <Button type="primary" onClick={reload}>
            {t('version.reload')}
          </Button>
        </Flex>
      ),
    });
  }, [manifest, notification, t]);

  return null;
}
