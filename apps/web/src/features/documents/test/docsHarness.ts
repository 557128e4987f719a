import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { pagedDocuments } from './documentFixtures.ts';

export const INSTRUCTIONS = 'GET /api/v0/soc/instructions/';
export const INSTRUCTION_LANGUAGES = 'GET /api/v0/soc/instructions/languages/';
export const ARTICLES = 'GET /api/v0/soc/articles/';
export const ARTICLE_LANGUAGES = 'GET /api/v0/soc/articles/languages/';

export const VIEWPORT_HEIGHT = 600;
export const CARD_HEIGHT = 120;

/** Gives the virtualised list a viewport and its rows a height (jsdom lays nothing out). */
export function stubListLayout(): void {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'documents-list' ? VIEWPORT_HEIGHT : 0;
  });
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'documents-list' ? 800 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? CARD_HEIGHT : 0;
  });
}

/** Signs in and opens `path` with the document endpoints mocked (50 instructions in en by default). */
export function openDocs(path = '/docs/instructions', routes: MockRoutes = {}) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      [INSTRUCTIONS]: pagedDocuments(50),
      [INSTRUCTION_LANGUAGES]: { body: { results: [{ language: 'en', count: 50 }] } },
      'GET /api/v0/soc/instructions/tags/': { body: { results: ['vpn', 'mail'] } },
      'GET /api/v0/soc/instructions/sensors/': { body: { results: ['ids'] } },
      ...routes,
    }),
  );
  const app = renderApp(path);
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...app, user, fetchMock };
}
