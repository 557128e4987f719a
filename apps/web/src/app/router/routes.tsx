import { Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../../shared/ui/FullPageSpinner.tsx';
import { lazyPage } from '../../shared/lib/chunkLoad.ts';
import { RootLayout, RouteErrorScreen } from './RootLayout.tsx';

// Every page is its own chunk (design §7); failures reach the shell's error boundary.
const TasksRoutePage = lazyPage(
  () => import('../../features/tasks/pages/TasksRoutePage.tsx'),
  'TasksRoutePage',
);
const MisconfigsPage = lazyPage(
  () => import('../../features/misconfigs/pages/MisconfigsPage.tsx'),
  'MisconfigsPage',
);
const loadIncidentsPage = () => import('../../features/incidents/pages/IncidentsPage.tsx');
const IncidentsPage = lazyPage(loadIncidentsPage, 'IncidentsPage');
const ExternalLoginCallbackPage = lazyPage(
  () => import('../../features/auth/pages/ExternalLoginCallbackPage.tsx'),
  'ExternalLoginCallbackPage',
);
const loadIncidentPage = () => import('../../features/incident-page/pages/IncidentPage.tsx');
const IncidentPage = lazyPage(loadIncidentPage, 'IncidentPage');
const DocsHubPage = lazyPage(() => import('../../features/documents/pages/DocsHubPage.tsx'), 'DocsHubPage');
const DocumentPage = lazyPage(
  () => import('../../features/documents/pages/DocumentPage.tsx'),
  'DocumentPage',
);
const loadDashboardPage = () => import('../../features/dashboard/pages/DashboardPage.tsx');
const DashboardPage = lazyPage(loadDashboardPage, 'DashboardPage');
const RulePage = lazyPage(() => import('../../features/rules/pages/RulePage.tsx'), 'RulePage');
const ReportsPage = lazyPage(() => import('../../features/reports/pages/ReportsPage.tsx'), 'ReportsPage');
const TenantsPage = lazyPage(() => import('../../features/tenants/pages/TenantsPage.tsx'), 'TenantsPage');
const TenantPage = lazyPage(() => import('../../features/tenants/pages/TenantPage.tsx'), 'TenantPage');
const AssetsPage = lazyPage(() => import('../../features/assets/pages/AssetsPage.tsx'), 'AssetsPage');
const AssetPage = lazyPage(() => import('../../features/assets/pages/AssetPage.tsx'), 'AssetPage');
const LogSourcesPage = lazyPage(
  () => import('../../features/log-sources/pages/LogSourcesPage.tsx'),
  'LogSourcesPage',
);
const FileViewerPage = lazyPage(
  () => import('../../features/files/pages/FileViewerPage.tsx'),
  'FileViewerPage',
);
const NotificationSettingsPage = lazyPage(
  () => import('../../features/settings/pages/NotificationSettingsPage.tsx'),
  'NotificationSettingsPage',
);
const IocFeedPage = lazyPage(() => import('../../features/ioc-feed/pages/IocFeedPage.tsx'), 'IocFeedPage');
const WebhooksPage = lazyPage(() => import('../../features/webhooks/pages/WebhooksPage.tsx'), 'WebhooksPage');
const AuditLogPage = lazyPage(() => import('../../features/settings/pages/AuditLogPage.tsx'), 'AuditLogPage');
const ChangePasswordPage = lazyPage(
  () => import('../../features/auth/pages/ChangePasswordPage.tsx'),
  'ChangePasswordPage',
);

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
