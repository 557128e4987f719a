import { vi } from 'vitest';
import { PHONE_MEDIA_QUERY } from '@/shared/hooks/useIsPhone.ts';

/**
 * Makes the phone layout's media query match (jsdom has no viewport; setup.ts answers every
 * query with "no"). Undone by `vi.unstubAllGlobals()`, which setup.ts calls after each test.
 */
export function stubPhoneViewport(): void {
  const desktop = window.matchMedia.bind(window);
  vi.stubGlobal('matchMedia', (query: string): MediaQueryList => {
    const list = desktop(query);
    return query === PHONE_MEDIA_QUERY ? { ...list, matches: true } : list;
  });
}
