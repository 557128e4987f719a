import type { CurrentUser, PortalConfig } from '@soc/contracts';
import type { MockRoutes } from './fetchMock.ts';

export const portalConfig: PortalConfig = {
  portal_name: 'Acme SOC',
  logo_url: null,
  primary_color: '#1668dc',
  version: '2.10.24',
  build_id: 'test',
  flags: { hide_oidc_buttons: false, hide_eps_widget: false, alternate_category_filter: false },
  sso_enabled: false,
  error_reporting_dsn: null,
};

export const currentUser: CurrentUser = {
  id: 7,
  username: 'ivanov',
  first_name: 'Ivan',
  last_name: 'Ivanov',
  email: 'ivanov@example.com',
  permissions: ['incidents.view'],
  must_change_password: false,
};

/** An analyst of the provider: the staff area is theirs (design §9). */
export const staffUser: CurrentUser = {
  ...currentUser,
  id: 8,
  username: 'petrova',
  first_name: 'Anna',
  last_name: 'Petrova',
  email: 'petrova@soc.example',
  permissions: ['incidents.view', 'incidents.set_status', 'soc.workspace'],
};

/** Endpoints every app-level test needs: public config, no OIDC providers, the current user. */
export const baseRoutes = (overrides: MockRoutes = {}): MockRoutes => ({
  'GET /api/v0/portal/config/': { body: portalConfig },
  'GET /api/v0/auth/oidc_providers/': { body: { results: [] } },
  'GET /api/v0/auth/user/': { body: currentUser },
  'POST /api/v0/auth/logout/': { body: { detail: 'Logged out' } },
  'GET /api/v0/notifications/inbox/count/': { body: { unread: 0, unread_exact: true } },
  ...overrides,
});
