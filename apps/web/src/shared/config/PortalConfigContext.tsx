import type { PortalConfig } from '@soc/contracts';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Branding and flags of this deployment. Null when the config could not be loaded: the portal
 * then runs with built-in defaults rather than not at all.
 */
export const PortalConfigContext = createContext<PortalConfig | null>(null);

/** The loaded portal config, or null (see PortalConfigContext). */
export const usePortalConfig = (): PortalConfig | null => useContext(PortalConfigContext);

/** The portal's display name, falling back to the translated default. */
export function usePortalName(): string {
  const config = usePortalConfig();
  const { t } = useTranslation();
  return config?.portal_name || t('app.defaultPortalName');
}
