import { PRODUCT_VERSION, SHELL_MIN_WIDTH } from '@soc/contracts';
import { Flex, Layout, theme } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { usePortalName } from '@/shared/config/PortalConfigContext.tsx';
import { useDownloads } from '@/shared/downloads/downloads.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { BrandLogo } from '@/shared/ui/BrandLogo.tsx';
import { lazyPage } from '@/shared/lib/chunkLoad.ts';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary.tsx';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';
import { LanguageSwitch } from '@/shared/ui/LanguageSwitch.tsx';
import { ThemeSwitch } from '@/shared/ui/ThemeSwitch.tsx';
import { MainMenu } from './MainMenu.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';
import { inboxKeys, NotificationBell } from '../../features/inbox/index.ts';
import { loadLiveUpdates } from '../../features/live/routes.ts';

/** The download popup (progress bars and all) loads with the first download, not with the shell. */
const DownloadPopup = lazy(() =>
  import('@/shared/downloads/DownloadPopup.tsx').then((m) => ({ default: m.DownloadPopup })),
);

/** The phone header (menu button and antd's Drawer) loads on a phone only: the desktop shell never needs it. */
const PhoneMenu = lazy(() => import('./PhoneMenu.tsx').then((m) => ({ default: m.PhoneMenu })));

/** Mounts the popup from the first download on, so that it can also fade out. */
// the live-event subscription loads after the shell (its schemas and cache keys are not start-up code)
const LiveUpdates = lazyPage(loadLiveUpdates, 'LiveUpdates');

function LazyDownloadPopup() {
  const count = useDownloads().length;
  const [wanted, setWanted] = useState(false);
  if (count > 0 && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    // a chunk that fails to load must not take the shell down with it
    <ErrorBoundary resetKey="downloads" fallback={null}>
      <Suspense fallback={null}>
        <DownloadPopup />
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * The signed-in frame: header (brand, menu, language, theme, profile), the routed page and a
 * footer with the product version. The header's bell is the notification centre (issue 40). Never narrower than SHELL_MIN_WIDTH (product §A2), except
 * below 1024 px: there the phone layout has a menu button in the header that opens a drawer
 * with the menu and the header's controls.
 */
export function AppShell() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const portalName = usePortalName();
  const isPhone = useIsPhone();
  const padding = isPhone ? token.paddingSM : token.paddingLG;
  const client = useQueryClient();
  // the live stream tells of the notification centre; the bell and its panel refetch
  const refreshInbox = useCallback(
    () => void client.invalidateQueries({ queryKey: inboxKeys.all }),
    [client],
  );

  return (
    <Layout
      // index.html's styles key the phone's table scrolling to this (the breakpoint is useIsPhone's)
      data-layout={isPhone ? 'phone' : 'desktop'}
      data-testid="app-shell"
      style={{ minWidth: isPhone ? 0 : SHELL_MIN_WIDTH, minHeight: '100vh' }}
    >
      <Layout.Header
        data-testid="shell-header"
        style={{
          position: 'sticky',
          top: 0,
          zIndex: token.zIndexBase + 10,
          display: 'flex',
          alignItems: 'center',
          gap: isPhone ? token.marginSM : token.marginLG,
          paddingInline: padding,
          background: token.colorBgContainer,
          borderBottom: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        }}
      >
        <Link
          to="/dashboard"
          aria-label={t('app.homeLink', { portalName })}
          style={{ display: 'flex', flex: 'none', color: 'inherit' }}
        >
          <BrandLogo />
        </Link>
        {isPhone ? (
          // the bell stays in the top bar on a phone, beside the menu button
          <Flex align="center" gap="small" style={{ marginInlineStart: 'auto' }}>
            <NotificationBell />
            {/* a chunk that fails to load leaves the phone without its menu, not the shell down */}
            <ErrorBoundary resetKey="phone-menu" fallback={null}>
              <Suspense fallback={null}>
                <PhoneMenu />
              </Suspense>
            </ErrorBoundary>
          </Flex>
        ) : (
          <>
            <MainMenu />
            <Flex align="center" gap="middle" style={{ flex: 'none' }}>
              <LanguageSwitch />
              <ThemeSwitch />
              <NotificationBell />
              <ProfileMenu />
            </Flex>
          </>
        )}
      </Layout.Header>
      <Layout.Content style={{ padding, minWidth: 0 }}>
        {/* Keyed by path: leaving a page that crashed clears the error. */}
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<FullPageSpinner fullHeight={false} />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', paddingBlock: token.paddingSM }}>
        {/* plain text in the secondary colour: Typography would bring its editor and tooltip into the shell */}
        <span data-testid="app-version" style={{ color: token.colorTextSecondary }}>
          {t('footer.version', { version: PRODUCT_VERSION })}
        </span>
      </Layout.Footer>
      <LazyDownloadPopup />
      {/* without its chunk the lists still refresh by their 30 s poll */}
      <ErrorBoundary resetKey="live" fallback={null}>
        <Suspense fallback={null}>
          <LiveUpdates onInboxUpdated={refreshInbox} />
        </Suspense>
      </ErrorBoundary>
    </Layout>
  );
}
