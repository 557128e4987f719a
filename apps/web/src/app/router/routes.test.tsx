import { PRODUCT_VERSION } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, deferred, mockFetch } from '../../test/fetchMock.ts';
import { baseRoutes, currentUser } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { directPageLoader } from './routes.tsx';
import { makeAccessToken } from '../../test/tokens.ts';

const signIn = () => authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });

describe('routes and shell', () => {
  it('redirects an unknown path to /dashboard', async () => {
    signIn();
    mockFetch(baseRoutes());
    const { router } = renderApp('/no/such/page');
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    await waitFor(() => expect(document.title).toBe('Dashboard | Acme SOC'));
  });

  it('opens the sections of the Issues menu with their titles in the document title', async () => {
    signIn();
    mockFetch(baseRoutes());
    const { router } = renderApp('/misconfigs');
    const page = await screen.findByTestId('misconfigs-page');
    expect(within(page).getByRole('heading', { name: 'Security recommendations' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Security recommendations | Acme SOC'));
    await router.navigate('/issues/other/thing');
    expect(await screen.findByTestId('tasks-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/issues/issues/task');
    await waitFor(() => expect(document.title).toBe('Tasks | Acme SOC'));
  });

  it('shows a spinner while the signed-in user is loading, then the shell', async () => {
    signIn();
    const userAnswer = deferred<{ body: unknown }>();
    mockFetch(baseRoutes({ 'GET /api/v0/auth/user/': () => userAnswer.promise }));
    renderApp('/dashboard');
    expect(await screen.findByTestId('page-spinner')).toBeInTheDocument();
    expect(screen.queryByTestId('shell-header')).not.toBeInTheDocument();
    userAnswer.resolve({ body: currentUser });
    expect(await screen.findByTestId('shell-header')).toBeInTheDocument();
    expect(screen.getByTestId('profile-fullname')).toHaveTextContent('Ivan Ivanov');
  });

  it('shows the login screen at any path while logged out', async () => {
    mockFetch(baseRoutes());
    const { router } = renderApp('/incidents');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/incidents');
    expect(screen.queryByTestId('shell-header')).not.toBeInTheDocument();
  });

  it('has the header, navigation and main landmarks, the menu entries and the version', async () => {
    signIn();
    mockFetch(baseRoutes());
    renderApp('/misconfigs');
    await screen.findByTestId('misconfigs-page');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    for (const name of ['Dashboard', 'Systems', 'Log sources', 'Reports', 'Documentation']) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(nav).getByRole('link', { name: /Assets\s*Beta/ })).toHaveAttribute('href', '/cmdb/assets');
    expect(within(nav).getByText('Issues')).toBeInTheDocument();
    expect(screen.getByTestId('app-version')).toHaveTextContent(PRODUCT_VERSION);
  });

  it('logs out from the profile menu, keeping locale and theme', async () => {
    signIn();
    const fetchMock = mockFetch(baseRoutes());
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByTestId('theme-switch'));
    await user.click(screen.getByTestId('lang-switch'));
    await user.click(screen.getByTestId('profile-menu'));
    expect(await screen.findByTestId('profile-username')).toHaveTextContent('ivanov');
    await user.click(await screen.findByTestId('profile-logout'));

    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(window.localStorage.getItem('auth')).toBeNull();
    expect(window.localStorage.getItem('locale')).toBe('ru');
    expect(window.localStorage.getItem('currentTheme')).toBe('dark');
    expect(callsTo(fetchMock, 'POST /api/v0/auth/logout/')[0]?.body).toEqual({ refresh: 'refresh-1' });
  });

  it('returns to the login screen, saying why, when the session cannot be renewed', async () => {
    authStore.setTokens({ access: makeAccessToken(5), refresh: 'revoked' });
    mockFetch(
      baseRoutes({
        'POST /api/v0/auth/token/refresh/': { status: 401, body: { detail: 'Token is blacklisted' } },
      }),
    );
    renderApp('/reports');
    expect(await screen.findByTestId('session-ended')).toHaveTextContent('Your session has ended');
    expect(screen.getByTestId('login-form')).toBeInTheDocument();
    expect(screen.queryByTestId('notification-error')).not.toBeInTheDocument();
    expect(window.localStorage.getItem('auth')).toBeNull();
  });

  it('opens the change-password page from the profile menu', async () => {
    signIn();
    mockFetch(baseRoutes());
    const { user, router } = renderApp('/dashboard');
    await user.click(await screen.findByTestId('profile-menu'));
    await user.click(await screen.findByTestId('profile-change-password'));
    expect(await screen.findByTestId('cp-old')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/changepassword');
  });
});

describe('directPageLoader', () => {
  it('names the chunk of the page each address opens, or redirects to', () => {
    const dashboard = directPageLoader('/dashboard');
    expect(dashboard).toBeDefined();
    // the root and unknown paths open the dashboard
    expect(directPageLoader('/')).toBe(dashboard);
    expect(directPageLoader('/dashboard/')).toBe(dashboard);
    expect(directPageLoader('/dashboardx')).toBe(dashboard);
    const list = directPageLoader('/incidents');
    const card = directPageLoader('/inc/12345');
    const reports = directPageLoader('/reports/reportsList');
    expect(new Set([dashboard, list, card, reports]).size).toBe(4);
    // a redirect preloads the page it redirects to
    expect(directPageLoader('/reports')).toBe(reports);
    expect(directPageLoader('/docs')).toBe(directPageLoader('/docs/instructions'));
    expect(directPageLoader('/instruction/5')).toBe(directPageLoader('/article/7'));
    // the staff area: /soc and any address under it open the queue's chunk
    const queue = directPageLoader('/soc/queue');
    expect(queue).toBeDefined();
    expect(queue).not.toBe(dashboard);
    expect(directPageLoader('/soc')).toBe(queue);
    expect(directPageLoader('/soc/elsewhere')).toBe(queue);
    // the sign-in callback is outside the table's pages
    expect(directPageLoader('/auth/callback')).toBeUndefined();
  });
});
