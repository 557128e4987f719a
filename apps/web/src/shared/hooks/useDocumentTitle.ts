import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePortalName } from '../config/PortalConfigContext.tsx';

/** Sets `document.title` to `{title} | {portal name}` (product §A2) while the caller is mounted. */
export function useDocumentTitle(title: string): void {
  const portalName = usePortalName();
  const { t } = useTranslation();
  const fullTitle = t('app.titleTemplate', { title, portalName });
  useEffect(() => {
    document.title = fullTitle;
  }, [fullTitle]);
}
