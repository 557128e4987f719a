import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { mockFetch } from '../../test/fetchMock.ts';
import { baseRoutes, currentUser, staffUser } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { makeAccessToken } from '../../test/tokens.ts';
import { stubPhoneViewport } from '../../test/viewport.ts';

/** A state on a busy 2-core machine (the whole suite beside the server's) can take seconds. */
const BUSY = { timeout: 15_000 };

describe('the phone header (below 1024 px)', () => {
  it('holds the brand and a menu button; the drawer has the menu and the header controls', async () => {
    stubPhoneViewport();
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes());
    const { user, router } = renderApp('/dashboard');
    const button = await screen.findByRole('button', { name: 'Open the menu' }, BUSY);
    const header = screen.getByTestId('shell-header');
    expect(within(header).queryByTestId('profile-menu')).not.toBeInTheDocument();
    expect(within(header).queryByTestId('lang-switch')).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' }, BUSY);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = within(drawer).getByRole('navigation', { name: 'Main menu' });
    for (const entry of ['Dashboard', 'Incidents', 'Tasks', 'Systems', 'Reports', 'Documentation']) {
      expect(within(menu).getByRole('link', { name: entry })).toBeInTheDocument();
    }
    // the staff area's entry is for provider staff only
    expect(within(menu).queryByText('SOC')).not.toBeInTheDocument();
    expect(within(menu).queryByRole('link', { name: 'Mail quarantine' })).not.toBeInTheDocument();
    expect(within(drawer).getByTestId('lang-switch')).toBeInTheDocument();
    expect(within(drawer).getByRole('switch', { name: 'Dark theme' })).toBeInTheDocument();
    expect(within(drawer).getByTestId('profile-username')).toHaveTextContent(currentUser.username);
    expect(within(drawer).getByTestId('profile-logout')).toBeInTheDocument();

    // a choice navigates and closes the drawer
    await user.click(within(menu).getByRole('link', { name: 'Tasks' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/issues/issues/task'), BUSY);
    await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'), BUSY);
  });

  it('gives provider staff the SOC entry in the drawer', async () => {
    stubPhoneViewport();
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes({ 'GET /api/v0/auth/user/': { body: staffUser } }));
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Open the menu' }, BUSY));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' }, BUSY);
    const menu = within(drawer).getByRole('navigation', { name: 'Main menu' });
    // the staff area's submenu is open in the drawer, as Issues is: a phone has no hover
    expect(within(menu).getByText('SOC')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Triage queue' })).toHaveAttribute('href', '/soc/queue');
    expect(within(menu).getByRole('link', { name: 'Mail quarantine' })).toHaveAttribute('href', '/soc/mail');
  });

  it('keeps the desktop header at 1024 px and wider', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes());
    renderApp('/dashboard');
    expect(await screen.findByTestId('profile-menu', {}, BUSY)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open the menu' })).not.toBeInTheDocument();
  });
});
