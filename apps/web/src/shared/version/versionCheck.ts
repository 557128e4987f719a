import { useEffect, useState } from 'react';
import { z } from 'zod';

/** How often open tabs look for a new deployment. */
export const VERSION_POLL_INTERVAL_MS = 5 * 60_000;

/** `version.json`, written next to the bundle by the build (vite.config.ts). */
export const VersionManifestSchema = z.object({ version: z.string(), build_id: z.string() });
export type VersionManifest = z.infer<typeof VersionManifestSchema>;

/** The build id compiled into this bundle; 'dev' on the dev server, which has no manifest. */
export const CURRENT_BUILD_ID: string = __BUILD_ID__;

/** Reads the deployed manifest, bypassing every cache; null when there is none. */
export async function fetchVersionManifest(signal?: AbortSignal): Promise<VersionManifest | null> {
  const response = await fetch('/version.json', { cache: 'no-store', signal: signal ?? null });
  if (!response.ok) return null;
  const parsed = VersionManifestSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

/**
 * True once the server holds a different build than the one running: polled every
 * VERSION_POLL_INTERVAL_MS, whenever the window regains focus, and when the service worker has
 * installed a new deployment (serviceWorker.ts, loaded lazily). A new build found by the poll asks
 * the worker to fetch it too. Failures are only logged: a missed check is harmless.
 */
export function useNewVersionAvailable(currentBuildId: string = CURRENT_BUILD_ID): VersionManifest | null {
  const [available, setAvailable] = useState<VersionManifest | null>(null);

  useEffect(() => {
    if (currentBuildId === 'dev' || available) return;
    const controller = new AbortController();
    let running = false;
    const check = async () => {
      if (running) return;
      running = true;
      try {
        const manifest = await fetchVersionManifest(controller.signal);
        if (manifest && manifest.build_id !== currentBuildId) {
          setAvailable(manifest);
          void import('./serviceWorker.ts').then((sw) => sw.checkServiceWorkerUpdate());
        }
      } catch (error) {
        if (!controller.signal.aborted) console.warn('Version check failed', error);
      } finally {
        running = false;
      }
    };
    const onFocus = () => void check();
    let unsubscribe = () => {};
    import('./serviceWorker.ts').then(
      (sw) => {
        if (!controller.signal.aborted) unsubscribe = sw.onServiceWorkerUpdate(onFocus);
      },
      (error: unknown) => console.warn('Service worker module failed to load', error),
    );
    void check();
    const timer = setInterval(onFocus, VERSION_POLL_INTERVAL_MS);
    window.addEventListener('focus', onFocus);
    return () => {
      controller.abort();
      unsubscribe();
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [currentBuildId, available]);

  return available;
}
