import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetchMock.ts';
import { baseRoutes } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { notifyError } from '@/shared/ui/notifications.tsx';
import { SHELL_HEADER_HEIGHT } from './themeConfig.ts';

describe('toasts', () => {
  it('sit at the top right below the header, away from the comment composer at the bottom', async () => {
    mockFetch(baseRoutes({}));
    renderApp('/login');
    await screen.findByTestId('login-form');
    act(() => notifyError({ title: 'Could not send the comment' }));
    const notice = await screen.findByTestId('notification-error');
    const holder = notice.closest<HTMLElement>('.ant-notification');
    expect(holder).toHaveClass('ant-notification-topRight');
    // below the header, so that the language, theme and profile controls stay free
    expect(parseFloat(holder?.style.getPropertyValue('--notification-top') ?? '')).toBeGreaterThan(
      SHELL_HEADER_HEIGHT,
    );
  });
});
