import { Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';
import { lazyPage } from '@/shared/lib/chunkLoad.ts';
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

/** The chunks of the pages most often opened directly, by the path that opens them. */
const DIRECT_PAGES: [RegExp, () => Promise<unknown>][] = [
  [/^\/(dashboard\/?)?$/, loadDashboardPage],
  [/^\/incidents\/?$/, loadIncidentsPage],
  [/^\/inc\/[^/]+\/?$/, loadIncidentPage],
];

/** The loader of the page chunk that `pathname` opens, if it is one of DIRECT_PAGES. */
export function directPageLoader(pathname: string): (() => Promise<unknown>) | undefined {
  return DIRECT_PAGES.find(([path]) => path.test(pathname))?.[1];
}

/**
 * Starts loading the page chunk of the address the browser opened while the session is restored
 * and the user record loads (the auth gate renders the page only then): a full load of the
 * dashboard no longer fetches its chunk after those calls. A failure is left to the page's own
 * lazy import, which shows the chunk error screen.
 */
export function preloadDirectPage(pathname: string): void {
  void directPageLoader(pathname)?.().catch(() => undefined);
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
      { index: true, element: <Navigate to="/dashboard" replace /> },
      // Tasks (product §A2: /issues/issues/task with model, type and an optional id)
      { path: 'issues/issues/task/:id?', element: <TasksRoutePage /> },
      { path: 'issues/*', element: <Navigate to="/issues/issues/task" replace /> },
      { path: 'misconfigs', element: <MisconfigsPage /> },
      // the alerts of the user's systems (issue 40), from the Issues menu
      { path: 'alerts', element: <AlertsPage /> },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'incidents', element: <IncidentsPage /> },
      { path: 'inc/:incNumber', element: <IncidentPage /> },
      { path: 'changepassword', element: <ChangePasswordPage /> },
      // profile settings (issue 13): notification e-mails and the audit log of the user's systems
      { path: 'profile/notifications', element: <NotificationSettingsPage /> },
      { path: 'profile/audit', element: <AuditLogPage /> },
      // the IOC feed for the customer's blocking tools (issue 29 §3)
      { path: 'profile/ioc-feed', element: <IocFeedPage /> },
      // outbound webhooks of the user's systems (issue 29 part 2), from the profile menu
      { path: 'webhooks', element: <WebhooksPage /> },
      // Reports (product §B2): the menu opens the reports list tab.
      { path: 'reports', element: <Navigate to="/reports/reportsList" replace /> },
      { path: 'reports/:tab', element: <ReportsPage /> },
      { path: 'tenants', element: <TenantsPage /> },
      { path: 'tenants/:systemId', element: <TenantPage /> },
      { path: 'cmdb/assets', element: <AssetsPage /> },
      { path: 'cmdb/assets/:assetId', element: <AssetPage /> },
      { path: 'log-sources', element: <Navigate to="/log-sources/total" replace /> },
      { path: 'log-sources/:tab', element: <LogSourcesPage /> },
      // the file viewer: files/download/<kind>/<id>/<file> (product §B2)
      { path: 'files/*', element: <FileViewerPage /> },
      // The documentation hub (product §B2): the menu opens the instructions tab.
      { path: 'docs', element: <Navigate to="/docs/instructions" replace /> },
      { path: 'docs/:tab', element: <DocsHubPage /> },
      { path: 'instruction/:id', element: <DocumentPage key="instructions" tab="instructions" /> },
      {
        path: 'responseInstruction/:id',
        element: <DocumentPage key="responseInstructions" tab="responseInstructions" />,
      },
      { path: 'article/:id', element: <DocumentPage key="articles" tab="articles" /> },
      { path: 'rule/:id', element: <RulePage /> },
      // Any unknown path opens the dashboard (product §A2).
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];
