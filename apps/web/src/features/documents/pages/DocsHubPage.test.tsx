import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, holdFirst } from '../../../test/fetchMock.ts';
import { documentPage, makeDocument, pagedDocuments } from '../test/documentFixtures.ts';
import {
  CARD_HEIGHT,
  INSTRUCTION_LANGUAGES,
  INSTRUCTIONS,
  openDocs,
  stubListLayout,
  VIEWPORT_HEIGHT,
} from '../test/docsHarness.ts';

beforeEach(stubListLayout);
afterEach(() => vi.restoreAllMocks());

const listQueries = (fetchMock: Parameters<typeof callsTo>[0], key = INSTRUCTIONS) =>
  callsTo(fetchMock, key).map((call) => Object.fromEntries(call.url.searchParams));
const renderedIds = () =>
  screen.queryAllByTestId('document-card').map((card) => Number(card.getAttribute('data-id')));

describe('documentation hub', () => {
  it('opens the instructions tab from /docs, with the four tabs in a collapsible panel', async () => {
    const { router, user, fetchMock } = openDocs('/docs');
    expect(await screen.findByTestId('documents-page')).toHaveAttribute('data-kind', 'instruction');
    expect(router.state.location.pathname).toBe('/docs/instructions');
    const nav = screen.getByRole('navigation', { name: 'Documentation sections' });
    for (const name of ['Instructions', 'Response instructions', 'Articles', 'Rules']) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(nav).getByRole('link', { name: 'Articles' })).toHaveAttribute('href', '/docs/articles');
    await user.click(screen.getByTestId('docs-side-nav-toggle'));
    expect(screen.getByTestId('docs-side-nav')).toHaveAttribute('data-collapsed', 'true');
    expect(screen.getByTestId('docs-side-nav-toggle')).toHaveAccessibleName('Expand the section panel');
    await waitFor(() => expect(renderedIds()[0]).toBe(1));
    expect(listQueries(fetchMock)[0]).toEqual({
      ordering: '-updated',
      language: 'en',
      page: '1',
      page_size: '20',
    });
    await waitFor(() => expect(document.title).toBe('Instructions | Acme SOC'));
  });

  it('redirects an unknown tab to the dashboard', async () => {
    const { router } = openDocs('/docs/nonsense');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByTestId('docs-side-nav')).not.toBeInTheDocument();
  });

  it('shows the rules view in the rules tab', async () => {
    openDocs('/docs/rules');
    expect(await screen.findByTestId('rules-view')).toHaveAttribute('data-mode', 'rules');
    expect(screen.getByTestId('docs-side-nav')).toBeInTheDocument();
  });

  it('searches with the button and with Enter, trims the text, and re-runs when the text is cleared', async () => {
    const { user, fetchMock, router } = openDocs();
    await waitFor(() => expect(renderedIds()).toContain(1));
    const input = screen.getByTestId('documents-search-input');
    await user.type(input, '  vpn  ');
    await user.click(screen.getByTestId('documents-search-button'));
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.search).toBe('vpn'));
    expect(router.state.location.search).toBe('?search=vpn');
    expect(JSON.parse(window.localStorage.getItem('filters') ?? '{}')).toEqual({
      'docs-instructions': 'search=vpn',
    });

    await user.clear(input);
    await user.type(input, 'mail{Enter}');
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.search).toBe('mail'));

    const before = callsTo(fetchMock, INSTRUCTIONS).length;
    await user.clear(input);
    await waitFor(() => expect(callsTo(fetchMock, INSTRUCTIONS).length).toBe(before + 1));
    expect(listQueries(fetchMock).at(-1)?.search).toBeUndefined();
    expect(router.state.location.search).toBe('');

    // The same text searched again runs again.
    await user.type(input, 'mail{Enter}');
    await waitFor(() => expect(callsTo(fetchMock, INSTRUCTIONS).length).toBe(before + 2));
    await user.click(screen.getByTestId('documents-search-button'));
    await waitFor(() => expect(callsTo(fetchMock, INSTRUCTIONS).length).toBe(before + 3));
  });

  it('sorts by title and restores the sort from storage on the next visit', async () => {
    const { user, fetchMock, unmount } = openDocs();
    await waitFor(() => expect(renderedIds()).toContain(1));
    await user.click(within(screen.getByTestId('documents-sort')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Title: A to Z'));
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.ordering).toBe('title'));
    unmount();

    const second = openDocs('/docs/instructions');
    await waitFor(() => expect(second.router.state.location.search).toBe('?ordering=title'));
    expect(listQueries(second.fetchMock)[0]?.ordering).toBe('title');
  });

  it('loads the next page by `page` when scrolled to the end', async () => {
    const { fetchMock } = openDocs();
    await waitFor(() => expect(renderedIds()).toContain(1));
    expect(callsTo(fetchMock, INSTRUCTIONS)).toHaveLength(1);
    const list = screen.getByTestId('documents-list');
    act(() => {
      list.scrollTop = 20 * CARD_HEIGHT - VIEWPORT_HEIGHT;
      fireEvent.scroll(list);
    });
    await waitFor(() => expect(callsTo(fetchMock, INSTRUCTIONS)).toHaveLength(2));
    expect(listQueries(fetchMock)[1]).toMatchObject({ page: '2' });
    await waitFor(() => expect(screen.getByTestId('documents-total')).toHaveTextContent('1-40 of 50'));
  });

  it('loads the second page through the shared feed: its loading row, its error row and retry', async () => {
    const held = holdFirst(pagedDocuments(50), (request) => request.url.searchParams.get('page') === '2');
    const { fetchMock, user } = openDocs('/docs/instructions', { [INSTRUCTIONS]: held.handler });
    await waitFor(() => expect(renderedIds()).toContain(1));
    const list = screen.getByTestId('documents-list');
    act(() => {
      list.scrollTop = 25 * CARD_HEIGHT;
      fireEvent.scroll(list);
    });
    expect(await screen.findByTestId('documents-list-footer')).toHaveTextContent('Loading more…');
    expect(list).toHaveAttribute('aria-busy', 'true');

    held.release({ status: 500, body: { detail: 'Busy' } });
    await waitFor(() =>
      expect(screen.getByTestId('documents-list-footer')).toHaveTextContent('Could not load more documents'),
    );
    await user.click(screen.getByTestId('documents-list-retry'));
    await waitFor(() => expect(screen.getByTestId('documents-total')).toHaveTextContent('1-40 of 50'));
    expect(listQueries(fetchMock).map((query) => query.page)).toEqual(['1', '2', '2']);
  });

  it('says no data for an empty list', async () => {
    openDocs('/docs/instructions', { [INSTRUCTIONS]: { body: documentPage([]) } });
    expect(await screen.findByTestId('documents-empty')).toHaveTextContent('No data');
    expect(screen.queryByTestId('documents-no-language-data')).not.toBeInTheDocument();
  });

  it('shows the info notice when no document exists in the selected language, and switches language', async () => {
    const { user, fetchMock } = openDocs('/docs/instructions', {
      [INSTRUCTION_LANGUAGES]: { body: { results: [{ language: 'ru', count: 3 }] } },
      [INSTRUCTIONS]: (request) =>
        request.url.searchParams.get('language') === 'ru'
          ? {
              body: {
                ...documentPage([]),
                total: 1,
                results: [makeDocument(9, { language: 'ru', title: 'Инструкция' })],
              },
            }
          : { body: documentPage([]) },
    });
    const notice = await screen.findByTestId('documents-no-language-data');
    expect(notice).toHaveTextContent('No data for the selected language');
    expect(notice).toHaveTextContent('Documents exist in: Russian.');
    await user.click(within(screen.getByTestId('documents-language')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Russian'));
    await waitFor(() => expect(renderedIds()).toEqual([9]));
    expect(listQueries(fetchMock).at(-1)?.language).toBe('ru');
    expect(screen.queryByTestId('documents-no-language-data')).not.toBeInTheDocument();
  });

  it("offers 'Повторить загрузку' when the language list fails, and retries it", async () => {
    await i18n.changeLanguage('ru');
    let attempts = 0;
    const { user, fetchMock } = openDocs('/docs/instructions', {
      [INSTRUCTION_LANGUAGES]: () =>
        ++attempts === 1
          ? { status: 500, body: { detail: 'Down' } }
          : { body: { results: [{ language: 'en', count: 1 }] } },
    });
    const retry = await screen.findByTestId('documents-languages-retry');
    expect(retry).toHaveTextContent('Повторить загрузку');
    await user.click(retry);
    await waitFor(() => expect(screen.queryByTestId('documents-languages-failed')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, INSTRUCTION_LANGUAGES)).toHaveLength(2);
    // ru interface: the list asks for Russian documents, which the languages say do not exist.
    expect(screen.getByTestId('documents-no-language-data')).toHaveTextContent(
      'Нет данных для выбранного языка',
    );
  });

  it("keeps a summary's paragraphs and list items on lines of their own, in the card and the panel", async () => {
    const summary = 'Isolate the host.\n• collect memory\n• collect logs';
    const { user } = openDocs('/docs/instructions', {
      [INSTRUCTIONS]: { body: { ...documentPage([1]), results: [makeDocument(1, { summary })] } },
    });
    await waitFor(() => expect(renderedIds()).toEqual([1]));
    const onCard = screen.getByTestId('document-card-summary');
    expect(onCard.textContent).toBe(summary);
    // the line breaks show (not collapsed into one run-on line); the card clamps to 3 lines
    expect(onCard).toHaveStyle({ whiteSpace: 'pre-line' });
    await user.click(screen.getByTestId('document-card'));
    const panel = await screen.findByTestId('document-panel-summary');
    const inPanel = within(panel).getByText((_, element) => element?.textContent === summary);
    expect(inPanel).toHaveStyle({ whiteSpace: 'pre-line' });
  });

  it('opens the side panel with collapsible summary and attachments, linking to the card', async () => {
    const attachment = {
      id: 4,
      filename: 'scheme.pdf',
      size: 2048,
      content_type: 'application/pdf',
      link: '/api/v0/soc/instructions/2/attachments/4/',
      created: '2026-01-01T00:00:00.000Z',
    };
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: vi.fn(() => 'blob:file') });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
    const { user, fetchMock } = openDocs('/docs/instructions', {
      'GET /api/v0/soc/instructions/2/download_pdf/': { body: 'pdf' },
      [INSTRUCTIONS]: {
        body: {
          ...documentPage([1]),
          total: 2,
          results: [makeDocument(1), makeDocument(2, { attachments: [attachment] })],
        },
      },
    });
    await waitFor(() => expect(renderedIds()).toEqual([1, 2]));
    await user.click(screen.getAllByTestId('document-card')[1]!);
    const panel = await screen.findByTestId('document-side-panel');
    expect(panel).toHaveAttribute('data-id', '2');
    expect(within(panel).getByTestId('document-panel-summary')).toHaveTextContent('Summary of document 2');
    expect(within(panel).getByTestId('document-panel-summary')).toHaveTextContent('ids');
    expect(within(panel).getByTestId('document-panel-attachments-link')).toHaveTextContent('scheme.pdf');
    expect(within(panel).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/instruction/2');
    await user.click(within(panel).getByTestId('document-side-panel-pdf'));
    expect(await screen.findByTestId('download-item')).toHaveAttribute('data-filename', 'Document 2.pdf');
    await waitFor(() =>
      expect(callsTo(fetchMock, 'GET /api/v0/soc/instructions/2/download_pdf/')).toHaveLength(1),
    );

    await user.click(within(panel).getByTestId('document-panel-summary-toggle'));
    await waitFor(() =>
      expect(
        within(panel).getByTestId('document-panel-summary-toggle').closest('[aria-expanded]'),
      ).toHaveAttribute('aria-expanded', 'false'),
    );
    await user.click(screen.getByTestId('document-side-panel-close'));
    expect(screen.queryByTestId('document-side-panel')).not.toBeInTheDocument();
  });

  it('applies a tag filter on closing the multiselect', async () => {
    const { user, fetchMock } = openDocs();
    await waitFor(() => expect(renderedIds()).toContain(1));
    await user.click(screen.getByTestId('documents-filter-toggle'));
    await user.click(within(screen.getByTestId('document-filter-tags')).getByRole('combobox'));
    await user.click(await screen.findByTitle('mail'));
    expect(listQueries(fetchMock).some((query) => query.tags__in)).toBe(false);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape', code: 'Escape', keyCode: 27, which: 27 });
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.tags__in).toBe('mail'));
    expect(screen.getByTestId('documents-filter-toggle')).toHaveAccessibleName('Filters: 1 applied');
  });
});
