import { useEffect, type ReactNode } from 'react';
import { prefetchOtherLanguages } from '@/shared/i18n/i18n.ts';
import { useStartupLanguage } from '@/shared/i18n/useLanguagePacks.ts';
import { ChunkLoadError } from '@/shared/lib/chunkLoad.ts';
import { ChunkLoadErrorScreen } from '@/shared/ui/ChunkLoadErrorScreen.tsx';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';

export type LanguageGateProps = {
  children: ReactNode;
};

/** How long the prefetch of the other language may wait for an idle moment. */
const PREFETCH_IDLE_TIMEOUT_MS = 5000;

/**
 * Renders the app once the interface language's catalog (a lazy chunk) has arrived: a spinner
 * until then, the ChunkLoadError screen (with a reload) when it cannot be loaded. Once the app
 * is up, the other language's pack is fetched when the browser is idle.
 */
export function LanguageGate({ children }: LanguageGateProps) {
  const state = useStartupLanguage();
  const ready = state.status === 'ready';

  useEffect(() => {
    if (!ready) return undefined;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(prefetchOtherLanguages, {
        timeout: PREFETCH_IDLE_TIMEOUT_MS,
      });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(prefetchOtherLanguages, PREFETCH_IDLE_TIMEOUT_MS / 5);
    return () => clearTimeout(timer);
  }, [ready]);
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'failed') {
    const failure = state.error instanceof ChunkLoadError ? state.error.failure : 'other';
    return <ChunkLoadErrorScreen failure={failure} />;
  }
  return children;
}
