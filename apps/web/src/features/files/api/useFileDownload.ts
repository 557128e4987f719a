import { useEffect, useState } from 'react';
import { apiDownload, type DownloadedFile } from '@/shared/api/index.ts';

export type FileDownloadState =
  | { state: 'idle' }
  | { state: 'loading'; percent: number }
  | { state: 'done'; file: DownloadedFile }
  | { state: 'error'; error: unknown };

/**
 * Downloads `…/{path}/download/` as a stream with progress (product §B7: notifications off)
 * once `enabled`; leaving the page aborts it.
 */
export function useFileDownload(path: string, enabled: boolean): FileDownloadState {
  const [status, setStatus] = useState<FileDownloadState>({ state: 'idle' });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setStatus({ state: 'loading', percent: 0 });
    apiDownload(`/soc/files/${path}/download/`, {
      notify: false,
      signal: controller.signal,
      onProgress: ({ percent }) => {
        if (!controller.signal.aborted) setStatus({ state: 'loading', percent });
      },
    }).then(
      (file) => {
        if (!controller.signal.aborted) setStatus({ state: 'done', file });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setStatus({ state: 'error', error });
      },
    );
    return () => controller.abort();
  }, [path, enabled]);
  return status;
}
