import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '../api/authStore.ts';
import { mockFetch } from '../../test/fetchMock.ts';
import { baseRoutes } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { makeAccessToken } from '../../test/tokens.ts';

describe('LanguageSwitch', () => {
  it('switches the whole interface, <html lang> and the title, and persists the choice', async () => {
    authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
    mockFetch(baseRoutes());
    const { user } = renderApp('/misconfigs');
    const toggle = await screen.findByRole('button', { name: 'Language: EN. Switch to RU' });
    await screen.findByTestId('misconfigs-page');

    await user.click(toggle);
    expect(screen.getByTestId('lang-switch')).toHaveTextContent('RU');
    expect(screen.getByRole('navigation', { name: 'Главное меню' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Рекомендации по безопасности' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('ru');
    expect(window.localStorage.getItem('locale')).toBe('ru');
    await waitFor(() => expect(document.title).toBe('Рекомендации по безопасности | Acme SOC'));
  });
});
