import { App, ConfigProvider, theme } from 'antd';
import { useLayoutEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePortalConfig } from '../../shared/config/PortalConfigContext.tsx';
import { useAntdLocale } from '../../shared/i18n/useLanguagePacks.ts';
import { useThemeMode } from '../../shared/theme/ThemeModeContext.tsx';
import { NotificationBridge } from '../../shared/ui/notifications.tsx';
import { buildThemeConfig } from './themeConfig.ts';

export type AppThemeProviderProps = {
  children: ReactNode;
};

/**
 * antd's ConfigProvider for the current theme (light/dark algorithm, brand primary colour) and
 * language, plus <App> so that toasts and modals follow both.
 */
export function AppThemeProvider({ children }: AppThemeProviderProps) {
  const { mode } = useThemeMode();
  const config = usePortalConfig();
  const { i18n } = useTranslation();
  const primaryColor = config?.primary_color;
  // antd's texts come with the language's pack (a lazy chunk); until then antd's own English
  const locale = useAntdLocale(i18n.language);

  const themeConfig = useMemo(() => buildThemeConfig(mode, primaryColor), [mode, primaryColor]);

  return (
    <ConfigProvider theme={themeConfig} locale={locale}>
      <ThemedApp>{children}</ThemedApp>
    </ConfigProvider>
  );
}

/**
 * Toasts sit in the bottom-right corner: at the top they would cover the header's language,
 * theme and profile controls and the profile dropdown.
 */
const NOTIFICATION_CONFIG = { placement: 'bottomRight' } as const;

/** antd's <App>: context for toasts and modals under the current theme. */
function ThemedApp({ children }: AppThemeProviderProps) {
  return (
    <App notification={NOTIFICATION_CONFIG}>
      <NotificationBridge />
      <PageBackground />
      {children}
    </App>
  );
}

/** Paints the page behind the app with the theme's layout colours (visible on overscroll). */
function PageBackground() {
  const { token } = theme.useToken();
  useLayoutEffect(() => {
    document.body.style.backgroundColor = token.colorBgLayout;
    document.body.style.color = token.colorText;
  }, [token.colorBgLayout, token.colorText]);
  return null;
}
