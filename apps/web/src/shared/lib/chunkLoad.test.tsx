import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import {
  ChunkLoadError,
  classifyChunkError,
  importWithTimeout,
  lazyPage,
  preloadModule,
} from './chunkLoad.ts';

describe('importWithTimeout', () => {
  it('resolves with the module', async () => {
    await expect(importWithTimeout(() => Promise.resolve({ a: 1 }), 'A')).resolves.toEqual({ a: 1 });
  });

  it('times out after the limit (120 s by default)', async () => {
    vi.useFakeTimers();
    const pending = importWithTimeout(() => new Promise<never>(() => undefined), 'Slow');
    const assertion = expect(pending).rejects.toMatchObject({ name: 'ChunkLoadError', failure: 'timeout' });
    await vi.advanceTimersByTimeAsync(119_999);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });

  it('tells a missing chunk from other failures', async () => {
    const missing = new TypeError('Failed to fetch dynamically imported module: http://x/assets/Page-1.js');
    await expect(importWithTimeout(() => Promise.reject(missing), 'Page')).rejects.toMatchObject({
      failure: 'missing',
    });
    expect(classifyChunkError(new TypeError('Importing a module script failed.'))).toBe('missing');
    expect(classifyChunkError(new SyntaxError('Unexpected token'))).toBe('other');
  });
});

describe('lazy pages', () => {
  const Shown = ({ text }: { text: string }) => <p>{text}</p>;

  it('suspend while their module loads, then show it', async () => {
    const Page = lazyPage(() => Promise.resolve({ Shown }), 'Shown');
    render(
      <Suspense fallback="loading">
        <Page text="page" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('page')).toBeInTheDocument();
  });

  it('render at once, without their fallback, once the module was preloaded', async () => {
    const load = () => Promise.resolve({ Shown });
    const Page = lazyPage(load, 'Shown');
    await preloadModule(load);
    render(
      <Suspense fallback="loading">
        <Page text="page" />
      </Suspense>,
    );
    // on the first commit: no fallback, hence no wait for React's throttle of revealed content
    expect(screen.queryByText('loading')).not.toBeInTheDocument();
    expect(screen.getByText('page')).toBeInTheDocument();
  });
});

describe('lazy page failures', () => {
  const renderLazy = (error: Error) => {
    const Page = lazyPage(() => Promise.reject<{ Page: () => null }>(error), 'Page');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Suspense fallback="loading">
          <Page />
        </Suspense>
      </ErrorBoundary>,
    );
  };

  it('shows the missing-chunk screen with a reload button', async () => {
    renderLazy(new TypeError('Failed to fetch dynamically imported module'));
    const screenEl = await screen.findByTestId('chunk-error');
    expect(screenEl).toHaveAttribute('data-failure', 'missing');
    expect(screen.getByText('Part of the application is missing')).toBeInTheDocument();
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    await userEvent.click(screen.getByRole('button', { name: /Reload/ }));
    expect(reload).toHaveBeenCalled();
  });

  it('shows the timeout variant', async () => {
    renderLazy(new ChunkLoadError('timeout', 'Page'));
    expect(await screen.findByText('The page is taking too long to load')).toBeInTheDocument();
  });

  it('shows the generic variant for evaluation errors', async () => {
    renderLazy(new SyntaxError('Unexpected token'));
    expect(await screen.findByTestId('chunk-error')).toHaveAttribute('data-failure', 'other');
    expect(screen.getByText('The page could not be loaded')).toBeInTheDocument();
  });
});
