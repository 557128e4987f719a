import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel, type UserEvent } from '@testing-library/user-event';
import { vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { filterChoices, pagedIncidents } from './incidentFixtures.ts';

export const LIST = 'GET /api/v0/soc/incs/';
export const FILTERS = 'GET /api/v0/soc/filters/';

/** Height of the list's viewport and of each card, as jsdom has no layout. */
export const VIEWPORT_HEIGHT = 600;
export const CARD_HEIGHT = 150;

/**
 * Gives the virtualised list a viewport and its rows a height (jsdom lays nothing out), so
 * that the virtualizer renders the first cards and reacts to scrolling.
 */
export function stubListLayout(): void {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'incidents-list' ? VIEWPORT_HEIGHT : 0;
  });
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'incidents-list' ? 800 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? CARD_HEIGHT : 0;
  });
}

/** Signs in and opens `path` with the incident endpoints mocked (100 incidents by default). */
export function openIncidents(path = '/incidents', routes: MockRoutes = {}) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      [LIST]: pagedIncidents(100),
      [FILTERS]: { body: filterChoices },
      ...routes,
    }),
  );
  const app = renderApp(path);
  // Checking pointer-events means getComputedStyle up the tree on every click, which is slow
  // under antd's many style rules; the helpers target the live elements themselves.
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...app, user, fetchMock };
}

/** The cards currently rendered, by key. */
export const renderedKeys = (): number[] =>
  screen.queryAllByTestId('incident-card').map((card) => Number(card.getAttribute('data-key')));

/** Opens an antd Select by its test id. */
export async function openSelect(user: UserEvent, testId: string): Promise<void> {
  await user.click(within(screen.getByTestId(testId)).getByRole('combobox'));
}

/** Clicks the option with this text in the dropdown of the open Select (not one still fading out). */
export async function pickOption(user: UserEvent, text: string): Promise<void> {
  const option = await waitFor(() => {
    const combobox = document.querySelector('[role="combobox"][aria-expanded="true"]');
    const listId = combobox?.getAttribute('aria-controls');
    const dropdown = listId ? document.getElementById(listId)?.closest('.ant-select-dropdown') : null;
    const found = [...(dropdown?.querySelectorAll<HTMLElement>('.ant-select-item-option') ?? [])].find(
      (element) => element.textContent === text,
    );
    if (!found) throw new Error(`No option "${text}" in the open dropdown`);
    return found;
  });
  await user.click(option);
}

/**
 * Closes the open Select as Escape does in a browser (user-event sends no keyCode, which
 * rc-select reads).
 */
export function closeSelect(): void {
  const active = document.activeElement;
  if (active) fireEvent.keyDown(active, { key: 'Escape', code: 'Escape', keyCode: 27, which: 27 });
}

/** The option texts of the open Select's dropdown. */
export function openDropdownOptions(): string[] {
  const combobox = document.querySelector('[role="combobox"][aria-expanded="true"]');
  const listId = combobox?.getAttribute('aria-controls');
  const dropdown = listId ? document.getElementById(listId)?.closest('.ant-select-dropdown') : null;
  return [...(dropdown?.querySelectorAll('.ant-select-item-option') ?? [])].map(
    (option) => option.textContent ?? '',
  );
}

/**
 * Whether the create-incident modal is open. jsdom runs no CSS animations, so a closed modal
 * stays in the DOM in its leaving state rather than being hidden.
 */
export function isCreateModalOpen(): boolean {
  const modal = screen.queryByTestId('create-incident-modal')?.closest('.ant-modal');
  return !!modal && !modal.className.includes('-leave');
}
