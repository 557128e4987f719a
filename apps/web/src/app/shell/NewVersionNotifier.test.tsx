import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FakeWorkbox } from '../../test/fakeWorkbox.ts';
import { stubServiceWorkerContainer } from '../../test/fakeWorkbox.ts';
import { callsTo, mockFetch } from '../../test/fetchMock.ts';
import { baseRoutes } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { VERSION_POLL_INTERVAL_MS } from '@/shared/version/versionCheck.ts';

vi.mock('workbox-window', async () => ({
  Workbox: (await import('../../test/fakeWorkbox.ts')).FakeWorkbox,
}));

describe('NewVersionNotifier', () => {
  it('offers a reload and the changelog once another build is deployed', async () => {
    let deployed = 'test';
    const fetchMock = mockFetch(
      baseRoutes({ 'GET /version.json': () => ({ body: { version: '2.10.24', build_id: deployed } }) }),
    );
    renderApp('/dashboard');
    await screen.findByTestId('login-form');
    await vi.waitFor(() => expect(callsTo(fetchMock, 'GET /version.json')).toHaveLength(1));
    expect(screen.queryByTestId('new-version-notification')).not.toBeInTheDocument();

    deployed = 'next-build';
    window.dispatchEvent(new Event('focus'));
    const toast = await screen.findByTestId('new-version-notification');
    expect(toast).toHaveTextContent('A new version is available');
    expect(within(toast).getByRole('link', { name: "What's new" })).toHaveAttribute('href', '/CHANGELOG.md');
    expect(within(toast).getByRole('link', { name: "What's new" })).toHaveAttribute('target', '_blank');
    expect(within(toast).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /version.json')[1]?.url.pathname).toBe('/version.json');
  });

  it('polls every five minutes and ignores a missing manifest', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockFetch(baseRoutes());
    renderApp('/dashboard');
    await vi.waitFor(() => expect(callsTo(fetchMock, 'GET /version.json')).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(VERSION_POLL_INTERVAL_MS);
    expect(callsTo(fetchMock, 'GET /version.json')).toHaveLength(2);
    expect(screen.queryByTestId('new-version-notification')).not.toBeInTheDocument();
  });

  it('shows the notice when the service worker has installed a new deployment, and reloads through it', async () => {
    const unstub = stubServiceWorkerContainer(true);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    try {
      let deployed = 'test';
      const fetchMock = mockFetch(
        baseRoutes({ 'GET /version.json': () => ({ body: { version: '2.10.25', build_id: deployed } }) }),
      );
      const sw = await import('@/shared/version/serviceWorker.ts');
      await sw.registerServiceWorker();
      const Fake = (await import('workbox-window')).Workbox as unknown as typeof FakeWorkbox;
      const workbox = Fake.last!;
      renderApp('/dashboard');
      await vi.waitFor(() => expect(callsTo(fetchMock, 'GET /version.json')).toHaveLength(1));
      expect(screen.queryByTestId('new-version-notification')).not.toBeInTheDocument();

      // no poll, no focus: the worker's news alone brings the notice
      deployed = 'next-build';
      workbox.emit('waiting');
      const toast = await screen.findByTestId('new-version-notification');
      await userEvent.click(within(toast).getByRole('button', { name: 'Reload' }));
      await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
      expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce();
    } finally {
      unstub();
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
