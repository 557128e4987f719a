import { ConfigProvider, notification, theme } from 'antd';
import { useLayoutEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePortalConfig } from '@/shared/config/PortalConfigContext.tsx';
import { useAntdLocale } from '@/shared/i18n/useLanguagePacks.ts';
import { useThemeMode } from '@/shared/theme/ThemeModeContext.tsx';
import { NotificationApiContext, NotificationBridge } from '@/shared/ui/notifications.tsx';
import { buildThemeConfig, SHELL_HEADER_HEIGHT } from './themeConfig.ts';

export type AppThemeProviderProps = {
  children: ReactNode;
};

/**
 * antd's ConfigProvider for the current theme (light/dark algorithm, brand primary colour) and
 * language, plus the toast holder, so that toasts follow both.
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
 * The toast holder under the current theme and locale, and antd's base text style for the app
 * (what antd's <App> does; <App> itself would also load the modal and message code, issue 14).
 */
function ThemedApp({ children }: AppThemeProviderProps) {
  const { token } = theme.useToken();
  // Toasts, app-wide, sit at the top right just below the header: at the bottom right they
  // covered the comment composer's Send button, and higher up the header's language, theme
  // and profile controls.
  const [api, holder] = notification.useNotification({
    placement: 'topRight',
    top: SHELL_HEADER_HEIGHT + token.marginXS,
  });
  const style = {
    color: token.colorText,
    fontSize: token.fontSize,
    lineHeight: token.lineHeight,
    fontFamily: token.fontFamily,
  };
  return (
    <NotificationApiContext.Provider value={api}>
      <div style={style}>
        {holder}
        <NotificationBridge />
        <PageBackground />
        {children}
      </div>
    </NotificationApiContext.Provider>
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
