import { Suspense } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';
import type { QueryClient } from '@tanstack/react-query';
import { authStore } from '@/shared/api/index.ts';
import { lazyPage, preloadModule, type PagePrefetch } from '@/shared/lib/chunkLoad.ts';
import { RootLayout, RouteErrorScreen } from './RootLayout.tsx';
import { loadAlertsPage } from '../../features/alerts/routes.ts';
import { loadAssetPage, loadAssetsPage } from '../../features/assets/routes.ts';
import { loadChangePasswordPage, loadExternalLoginCallbackPage } from '../../features/auth/routes.ts';
import { loadDashboardPage } from '../../features/dashboard/routes.ts';
import { loadDocsHubPage, loadDocumentPage } from '../../features/documents/routes.ts';
import { loadFileViewerPage } from '../../features/files/routes.ts';
import { loadIncidentPage } from '../../features/incident-page/routes.ts';
import { loadIncidentsPage } from '../../features/incidents/routes.ts';
import { loadIocFeedPage } from '../../features/ioc-feed/routes.ts';
import { loadLogSourcesPage } from '../../features/log-sources/routes.ts';
import { loadMisconfigsPage } from '../../features/misconfigs/routes.ts';
import { loadReportsPage } from '../../features/reports/routes.ts';
import { loadRulePage } from '../../features/rules/routes.ts';
import { loadSocMailPage } from '../../features/soc-mail/routes.ts';
import { loadSocQueuePage } from '../../features/soc-queue/routes.ts';
import { loadSocRegisterPage } from '../../features/soc-register/routes.ts';
import { loadAuditLogPage, loadNotificationSettingsPage } from '../../features/settings/routes.ts';
import { loadTasksRoutePage } from '../../features/tasks/routes.ts';
import { loadTenantPage, loadTenantsPage } from '../../features/tenants/routes.ts';
import { loadWebhooksPage } from '../../features/webhooks/routes.ts';

// Every page is its own chunk (design §7); failures reach the shell's error boundary.
const TasksRoutePage = lazyPage(loadTasksRoutePage, 'TasksRoutePage');
const MisconfigsPage = lazyPage(loadMisconfigsPage, 'MisconfigsPage');
const AlertsPage = lazyPage(loadAlertsPage, 'AlertsPage');
const IncidentsPage = lazyPage(loadIncidentsPage, 'IncidentsPage');
const ExternalLoginCallbackPage = lazyPage(loadExternalLoginCallbackPage, 'ExternalLoginCallbackPage');
const IncidentPage = lazyPage(loadIncidentPage, 'IncidentPage');
const DocsHubPage = lazyPage(loadDocsHubPage, 'DocsHubPage');
const DocumentPage = lazyPage(loadDocumentPage, 'DocumentPage');
const DashboardPage = lazyPage(loadDashboardPage, 'DashboardPage');
const RulePage = lazyPage(loadRulePage, 'RulePage');
const ReportsPage = lazyPage(loadReportsPage, 'ReportsPage');
const TenantsPage = lazyPage(loadTenantsPage, 'TenantsPage');
const TenantPage = lazyPage(loadTenantPage, 'TenantPage');
const AssetsPage = lazyPage(loadAssetsPage, 'AssetsPage');
const AssetPage = lazyPage(loadAssetPage, 'AssetPage');
const LogSourcesPage = lazyPage(loadLogSourcesPage, 'LogSourcesPage');
const FileViewerPage = lazyPage(loadFileViewerPage, 'FileViewerPage');
const NotificationSettingsPage = lazyPage(loadNotificationSettingsPage, 'NotificationSettingsPage');
const IocFeedPage = lazyPage(loadIocFeedPage, 'IocFeedPage');
const WebhooksPage = lazyPage(loadWebhooksPage, 'WebhooksPage');
const AuditLogPage = lazyPage(loadAuditLogPage, 'AuditLogPage');
const ChangePasswordPage = lazyPage(loadChangePasswordPage, 'ChangePasswordPage');
const SocQueuePage = lazyPage(loadSocQueuePage, 'SocQueuePage');
const SocMailPage = lazyPage(loadSocMailPage, 'SocMailPage');
const SocRegisterPage = lazyPage(loadSocRegisterPage, 'SocRegisterPage');

/** What a route of the table carries: the loader of the page chunk it shows (or redirects to). */
type PageHandle = { load: () => Promise<unknown> };
const page = (load: PageHandle['load']): { handle: PageHandle } => ({ handle: { load } });

/** The loader of the page chunk that `pathname` opens (the route table's own), if any. */
export function directPageLoader(pathname: string): (() => Promise<unknown>) | undefined {
  const matches = matchRoutes(routes, pathname);
  const leaf = matches?.[matches.length - 1]?.route.handle as PageHandle | undefined;
  return leaf?.load;
}

/**
 * Starts loading the page chunk of the address the browser opened while the session is restored,
 * the language pack and the user record load (the auth gate renders the page only then): a full
 * load of any page no longer fetches its chunk after those calls (issue 40: every screen opened
 * by address, not only the dashboard and the incidents). When the chunk has arrived and a session
 * is there (or once the sign-in shown at the address has made one), the page's own first requests
 * leave too (its `prefetchPage`, if it has one). A failure
 * is left to the page's own lazy import, which shows the chunk error screen.
 */
export function preloadDirectPage(url: URL, client: QueryClient): void {
  const load = directPageLoader(url.pathname);
  if (!load) return;
  preloadModule(load).then(
    (module) => {
      const prefetch = (module as { prefetchPage?: PagePrefetch }).prefetchPage;
      if (!prefetch) return;
      if (authStore.get() !== null) {
        prefetch(client, url);
        return;
      }
      // signed out: the sign-in screen shows at this address, and the page follows the sign-in
      const stop = authStore.subscribe(() => {
        if (authStore.get() === null) return;
        stop();
        prefetch(client, new URL(window.location.href));
      });
    },
    () => undefined,
  );
}

/** The route table, shared by the browser router and the tests' memory router. */
export const routes: RouteObject[] = [
  // outside the auth gate: it is where a signed-out browser returns from an OIDC or SSO sign-in
  {
    path: 'auth/callback',
    element: (
      <Suspense fallback={<FullPageSpinner />}>
        <ExternalLoginCallbackPage />
      </Suspense>
    ),
    errorElement: <RouteErrorScreen />,
  },
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace />, ...page(loadDashboardPage) },
      // Tasks (product §A2: /issues/issues/task with model, type and an optional id)
      { path: 'issues/issues/task/:id?', element: <TasksRoutePage />, ...page(loadTasksRoutePage) },
      {
        path: 'issues/*',
        element: <Navigate to="/issues/issues/task" replace />,
        ...page(loadTasksRoutePage),
      },
      { path: 'misconfigs', element: <MisconfigsPage />, ...page(loadMisconfigsPage) },
      // the alerts of the user's systems (issue 40), from the Issues menu
      { path: 'alerts', element: <AlertsPage />, ...page(loadAlertsPage) },
      { path: 'dashboard', element: <DashboardPage />, ...page(loadDashboardPage) },
      { path: 'incidents', element: <IncidentsPage />, ...page(loadIncidentsPage) },
      { path: 'inc/:incNumber', element: <IncidentPage />, ...page(loadIncidentPage) },
      { path: 'changepassword', element: <ChangePasswordPage />, ...page(loadChangePasswordPage) },
      // profile settings (issue 13): notification e-mails and the audit log of the user's systems
      {
        path: 'profile/notifications',
        element: <NotificationSettingsPage />,
        ...page(loadNotificationSettingsPage),
      },
      { path: 'profile/audit', element: <AuditLogPage />, ...page(loadAuditLogPage) },
      // the IOC feed for the customer's blocking tools (issue 29 §3)
      { path: 'profile/ioc-feed', element: <IocFeedPage />, ...page(loadIocFeedPage) },
      // outbound webhooks of the user's systems (issue 29 part 2), from the profile menu
      { path: 'webhooks', element: <WebhooksPage />, ...page(loadWebhooksPage) },
      // Reports (product §B2): the menu opens the reports list tab.
      { path: 'reports', element: <Navigate to="/reports/reportsList" replace />, ...page(loadReportsPage) },
      { path: 'reports/:tab', element: <ReportsPage />, ...page(loadReportsPage) },
      { path: 'tenants', element: <TenantsPage />, ...page(loadTenantsPage) },
      { path: 'tenants/:systemId', element: <TenantPage />, ...page(loadTenantPage) },
      { path: 'cmdb/assets', element: <AssetsPage />, ...page(loadAssetsPage) },
      { path: 'cmdb/assets/:assetId', element: <AssetPage />, ...page(loadAssetPage) },
      {
        path: 'log-sources',
        element: <Navigate to="/log-sources/total" replace />,
        ...page(loadLogSourcesPage),
      },
      { path: 'log-sources/:tab', element: <LogSourcesPage />, ...page(loadLogSourcesPage) },
      // the file viewer: files/download/<kind>/<id>/<file> (product §B2)
      { path: 'files/*', element: <FileViewerPage />, ...page(loadFileViewerPage) },
      // The documentation hub (product §B2): the menu opens the instructions tab.
      { path: 'docs', element: <Navigate to="/docs/instructions" replace />, ...page(loadDocsHubPage) },
      { path: 'docs/:tab', element: <DocsHubPage />, ...page(loadDocsHubPage) },
      {
        path: 'instruction/:id',
        element: <DocumentPage key="instructions" tab="instructions" />,
        ...page(loadDocumentPage),
      },
      {
        path: 'responseInstruction/:id',
        element: <DocumentPage key="responseInstructions" tab="responseInstructions" />,
        ...page(loadDocumentPage),
      },
      {
        path: 'article/:id',
        element: <DocumentPage key="articles" tab="articles" />,
        ...page(loadDocumentPage),
      },
      { path: 'rule/:id', element: <RulePage />, ...page(loadRulePage) },
      // the staff area (design §9): the page itself tells a customer it is not available
      { path: 'soc', element: <Navigate to="/soc/queue" replace />, ...page(loadSocQueuePage) },
      { path: 'soc/queue', element: <SocQueuePage />, ...page(loadSocQueuePage) },
      { path: 'soc/mail', element: <SocMailPage />, ...page(loadSocMailPage) },
      { path: 'soc/incidents/new', element: <SocRegisterPage />, ...page(loadSocRegisterPage) },
      { path: 'soc/*', element: <Navigate to="/soc/queue" replace />, ...page(loadSocQueuePage) },
      // Any unknown path opens the dashboard (product §A2).
      { path: '*', element: <Navigate to="/dashboard" replace />, ...page(loadDashboardPage) },
    ],
  },
];
