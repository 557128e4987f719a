import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '../api/authStore.ts';
import { mockFetch } from '../../test/fetchMock.ts';
import { baseRoutes } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { makeAccessToken } from '../../test/tokens.ts';

describe('theme', () => {
  it('starts light and persists a switch to dark under currentTheme', async () => {
    mockFetch(baseRoutes());
    const { user } = renderApp('/dashboard');
    const toggle = await screen.findByRole('switch', { name: 'Dark theme' });
    expect(toggle).not.toBeChecked();
    expect(document.documentElement.dataset.theme).toBe('light');
    const lightBackground = document.body.style.backgroundColor;

    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(window.localStorage.getItem('currentTheme')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(document.body.style.backgroundColor).not.toBe(lightBackground));

    await user.click(toggle);
    expect(window.localStorage.getItem('currentTheme')).toBe('light');
  });

  it('restores the persisted theme', async () => {
    window.localStorage.setItem('currentTheme', 'dark');
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes());
    renderApp('/dashboard');
    expect(await screen.findByTestId('theme-switch')).toBeChecked();
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
