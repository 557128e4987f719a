import { PRODUCT_VERSION } from '@soc/contracts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { usePortalConfigQuery } from '../../features/portal/index.ts';
import { PortalConfigContext } from '@/shared/config/PortalConfigContext.tsx';
import { configureErrorReporting } from '@/shared/errors/errorReporter.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { ThemeModeProvider } from '@/shared/theme/ThemeModeContext.tsx';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';
import { AppThemeProvider } from './AppThemeProvider.tsx';
import { LanguageGate } from './LanguageGate.tsx';

export type AppProvidersProps = {
  queryClient: QueryClient;
  children: ReactNode;
};

/** Everything the screens rely on: server state, translations, theme and the portal config. */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ThemeModeProvider>
          <PortalConfigLoader>{children}</PortalConfigLoader>
        </ThemeModeProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}

/**
 * Loads the portal config and the interface language's catalog (in parallel) before anything
 * else renders: even the login screen is branded and translated.
 */
function PortalConfigLoader({ children }: { children: ReactNode }) {
  const query = usePortalConfigQuery();
  const config = query.data ?? null;

  useEffect(() => {
    configureErrorReporting({
      dsn: config?.error_reporting_dsn ?? null,
      release: config?.version ?? PRODUCT_VERSION,
      environment: import.meta.env.MODE,
    });
  }, [config]);

  return (
    <PortalConfigContext.Provider value={config}>
      <AppThemeProvider>
        <LanguageGate>{query.isPending ? <FullPageSpinner /> : children}</LanguageGate>
      </AppThemeProvider>
    </PortalConfigContext.Provider>
  );
}
