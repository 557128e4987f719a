import { act, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, mockFetch } from '../../test/fetchMock.ts';
import { makeAccessToken } from '../../test/tokens.ts';
import { authStore } from '../api/authStore.ts';
import { DOWNLOAD_POPUP_FADE_MS, DownloadPopup } from './DownloadPopup.tsx';
import { clearDownloads, DOWNLOAD_DONE_LINGER_MS, startDownload } from './downloads.ts';

const FILE = 'GET /api/v0/soc/files/report.pdf/';

beforeEach(() => {
  clearDownloads();
  authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: vi.fn(() => 'blob:file') });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
});

describe('DownloadPopup', () => {
  it('shows nothing without downloads', () => {
    render(<DownloadPopup />);
    expect(screen.queryByTestId('download-popup')).not.toBeInTheDocument();
  });

  it('lists a running download, marks it done, then lets it go and fades out', async () => {
    const answer = deferred<{ body: unknown; headers: Record<string, string> }>();
    mockFetch({ [FILE]: () => answer.promise });
    render(<DownloadPopup />);
    act(() => {
      startDownload({ path: '/soc/files/report.pdf/', filename: 'report.pdf' });
    });
    const item = await screen.findByTestId('download-item');
    expect(item).toHaveAttribute('data-status', 'active');
    expect(within(item).getByText('report.pdf')).toBeInTheDocument();

    vi.useFakeTimers({ shouldAdvanceTime: true });
    answer.resolve({
      body: 'pdf',
      headers: { 'Content-Disposition': "attachment; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82.pdf" },
    });
    await waitFor(() =>
      expect(screen.getByTestId('download-item')).toHaveAttribute('data-status', 'success'),
    );
    // The server's name wins over the fallback.
    expect(screen.getByTestId('download-item')).toHaveAttribute('data-filename', 'отчёт.pdf');

    await act(() => vi.advanceTimersByTimeAsync(DOWNLOAD_DONE_LINGER_MS));
    // Still on screen while it fades…
    expect(screen.getByTestId('download-popup').style.opacity).toBe('0');
    await act(() => vi.advanceTimersByTimeAsync(DOWNLOAD_POPUP_FADE_MS));
    // …then gone.
    expect(screen.queryByTestId('download-popup')).not.toBeInTheDocument();
  });
});
