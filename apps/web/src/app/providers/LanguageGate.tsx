import type { ReactNode } from 'react';
import { useStartupLanguage } from '../../shared/i18n/useLanguagePacks.ts';
import { ChunkLoadError } from '../../shared/lib/chunkLoad.ts';
import { ChunkLoadErrorScreen } from '../../shared/ui/ChunkLoadErrorScreen.tsx';
import { FullPageSpinner } from '../../shared/ui/FullPageSpinner.tsx';

export type LanguageGateProps = {
  children: ReactNode;
};

/**
 * Renders the app once the interface language's catalog (a lazy chunk) has arrived: a spinner
 * until then, the ChunkLoadError screen (with a reload) when it cannot be loaded.
 */
export function LanguageGate({ children }: LanguageGateProps) {
  const state = useStartupLanguage();
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'failed') {
    const failure = state.error instanceof ChunkLoadError ? state.error.failure : 'other';
    return <ChunkLoadErrorScreen failure={failure} />;
  }
  return children;
}
