import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import '../app/i18n/languagePacks.ts';
import { i18n, loadLanguage } from '@/shared/i18n/i18n.ts';

// Lazy pages are transformed on first import, which can take a few seconds in a cold run, and
// more on a busy machine (a file's first test took 7–8 s beside other suites on two cores).
// Only a failing wait lasts this long.
configure({ asyncUtilTimeout: 10_000 });

// antd reads media queries (Grid, responsive observers) and element sizes (Menu overflow,
// Typography ellipsis); jsdom implements neither.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver = ResizeObserverStub;

// jsdom logs "Not implemented" for pseudo-element styles, which antd's scrollbar measuring asks for.
const originalGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element, _pseudoElement?: string | null) =>
  originalGetComputedStyle(element);

// jsdom has no scrolling; antd calls scrollTo when opening popups.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

// Both catalogs are lazy chunks in the app; tests switch languages freely, so load both first.
await Promise.all([loadLanguage('en'), loadLanguage('ru')]);

beforeEach(async () => {
  window.localStorage.clear();
  // Module singletons outlive a test: re-read the (now empty) storage and reset the language.
  authStore.reload();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
