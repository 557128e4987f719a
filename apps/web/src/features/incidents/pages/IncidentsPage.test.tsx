import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SEARCH_MAX_LENGTH } from '@soc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { authStore } from '@/shared/api/authStore.ts';
import { writeStoredFilters } from '@/shared/lib/filters.ts';
import { callsTo, deferred, holdFirst, mockFetch, settle } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { appQueryClient, renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { INCIDENTS_FILTER_ENTITY } from '../lib/incidentQuery.ts';
import { filterChoices, incidentPage, keysFrom, pagedIncidents } from '../test/incidentFixtures.ts';
import { prefetchPage } from './IncidentsPage.tsx';
import {
  CARD_HEIGHT,
  FILTERS,
  LIST,
  openIncidents,
  renderedKeys,
  stubListLayout,
  VIEWPORT_HEIGHT,
} from '../test/pageHarness.ts';

beforeEach(stubListLayout);
afterEach(() => vi.restoreAllMocks());

const listQueries = (fetchMock: Parameters<typeof callsTo>[0]) =>
  callsTo(fetchMock, LIST).map((call) => Object.fromEntries(call.url.searchParams));

describe('IncidentsPage: list', () => {
  it('loads the first 40 newest incidents in the interface language and shows the range', async () => {
    const { fetchMock } = openIncidents();
    expect(await screen.findByTestId('incidents-page')).toBeInTheDocument();
    await waitFor(() => expect(renderedKeys().length).toBeGreaterThan(0));
    expect(renderedKeys()[0]).toBe(1);
    expect(screen.getByTestId('incidents-total')).toHaveTextContent('1-40 of 100');
    expect(listQueries(fetchMock)[0]).toEqual({
      limit: '40',
      offset: '0',
      ordering: '-created',
      language: 'en',
    });
    await waitFor(() => expect(document.title).toBe('Incidents | Acme SOC'));
  });

  it('loads the next page with offset 40 when scrolled to the end', async () => {
    const { fetchMock } = openIncidents();
    await waitFor(() => expect(renderedKeys()).toContain(1));
    // The first cards fill the viewport: no second page yet.
    expect(callsTo(fetchMock, LIST)).toHaveLength(1);
    expect(renderedKeys()).not.toContain(40);

    const list = screen.getByTestId('incidents-list');
    act(() => {
      list.scrollTop = 40 * CARD_HEIGHT - VIEWPORT_HEIGHT;
      fireEvent.scroll(list);
    });
    await waitFor(() => expect(callsTo(fetchMock, LIST)).toHaveLength(2));
    expect(listQueries(fetchMock)[1]).toMatchObject({ limit: '40', offset: '40' });
    await waitFor(() => expect(screen.getByTestId('incidents-total')).toHaveTextContent('1-80 of 100'));
  });

  it('loads the second page through the shared feed: its loading row, its error row and retry', async () => {
    const held = holdFirst(pagedIncidents(100), (request) => request.url.searchParams.get('offset') === '40');
    const { fetchMock, user } = openIncidents('/incidents', { [LIST]: held.handler });
    await waitFor(() => expect(renderedKeys()).toContain(1));
    const list = screen.getByTestId('incidents-list');
    act(() => {
      list.scrollTop = 45 * CARD_HEIGHT;
      fireEvent.scroll(list);
    });
    expect(await screen.findByTestId('incidents-list-footer')).toHaveTextContent('Loading more incidents…');
    expect(list).toHaveAttribute('aria-busy', 'true');

    held.release({ status: 500, body: { detail: 'Busy' } });
    await waitFor(() =>
      expect(screen.getByTestId('incidents-list-footer')).toHaveTextContent('Could not load more incidents'),
    );
    await user.click(screen.getByTestId('incidents-list-retry'));
    await waitFor(() => expect(screen.getByTestId('incidents-total')).toHaveTextContent('1-80 of 100'));
    expect(listQueries(fetchMock).map((query) => query.offset)).toEqual(['0', '40', '40']);
  });

  it('stops when the last page has no next link', async () => {
    const { fetchMock } = openIncidents('/incidents', { [LIST]: { body: incidentPage(keysFrom(1, 3)) } });
    await waitFor(() => expect(renderedKeys()).toEqual([1, 2, 3]));
    expect(screen.getByTestId('incidents-total')).toHaveTextContent('1-3 of 3');
    expect(screen.queryByTestId('incidents-list-footer')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, LIST)).toHaveLength(1);
  });

  it('says "more than" when the server stopped counting, in English and Russian', async () => {
    const capped = { body: incidentPage(keysFrom(1, 40), { total: 10_000, exact: false }) };
    openIncidents('/incidents', { [LIST]: capped });
    await waitFor(() =>
      expect(screen.getByTestId('incidents-total')).toHaveTextContent('1-40 of more than 10,000'),
    );
    // the length of the feed is unknown to assistive technology as well
    expect(screen.getAllByTestId('incident-card')[0]).toHaveAttribute('aria-setsize', '-1');
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() =>
      expect(screen.getByTestId('incidents-total')).toHaveTextContent(/^1-40 из более чем 10\s000$/),
    );
  });

  it('shows no data for an empty result and counts "No incidents", in English and Russian', async () => {
    openIncidents('/incidents', { [LIST]: { body: incidentPage([]) } });
    expect(await screen.findByTestId('incidents-empty')).toHaveTextContent('No data');
    expect(screen.getByTestId('incidents-total')).toHaveTextContent(/^No incidents$/);
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() => expect(screen.getByTestId('incidents-total')).toHaveTextContent(/^Нет инцидентов$/));
  });

  it('refuses a search longer than the server accepts with a message on the box', async () => {
    const { fetchMock, user } = openIncidents();
    await waitFor(() => expect(renderedKeys()).toContain(1));
    const input = screen.getByTestId('incidents-search-input');
    fireEvent.change(input, { target: { value: 'x'.repeat(SEARCH_MAX_LENGTH + 1) } });
    await user.type(input, '{Enter}');
    await user.click(screen.getByTestId('incidents-search-button'));
    const message = screen.getByTestId('incidents-search-error');
    expect(message).toHaveTextContent(`The search is too long (at most ${SEARCH_MAX_LENGTH} characters)`);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(message.textContent ?? '');
    // the typed text stays in the box to be shortened, and nothing was searched
    expect(input).toHaveValue('x'.repeat(SEARCH_MAX_LENGTH + 1));
    await settle();
    expect(listQueries(fetchMock).every((query) => query.search === undefined)).toBe(true);
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() =>
      expect(screen.getByTestId('incidents-search-error')).toHaveTextContent(
        `Слишком длинный запрос (максимум символов: ${SEARCH_MAX_LENGTH})`,
      ),
    );

    // at the limit the search goes through and the message goes away
    fireEvent.change(input, { target: { value: 'y'.repeat(SEARCH_MAX_LENGTH) } });
    expect(screen.queryByTestId('incidents-search-error')).not.toBeInTheDocument();
    await user.type(input, '{Enter}');
    await waitFor(() =>
      expect(listQueries(fetchMock).at(-1)).toMatchObject({ search: 'y'.repeat(SEARCH_MAX_LENGTH) }),
    );
  });

  it('shows a too-long search from the URL in the box with its message instead of dropping it', async () => {
    const long = 'z'.repeat(SEARCH_MAX_LENGTH + 5);
    const { fetchMock } = openIncidents(`/incidents?search=${long}&status__in=closed`);
    await waitFor(() => expect(listQueries(fetchMock).length).toBeGreaterThan(0));
    expect(screen.getByTestId('incidents-search-input')).toHaveValue(long);
    expect(screen.getByTestId('incidents-search-error')).toHaveTextContent(
      `The search is too long (at most ${SEARCH_MAX_LENGTH} characters)`,
    );
    // the list loads with the rest of the URL, without the search the server would refuse
    expect(listQueries(fetchMock).at(-1)).toMatchObject({ status__in: 'closed' });
    expect(listQueries(fetchMock).every((query) => query.search === undefined)).toBe(true);
  });

  it('shows a loading state, then an error with a retry that loads the list', async () => {
    let attempts = 0;
    const answer = deferred<{ status: number; body: unknown }>();
    const { user } = openIncidents('/incidents', {
      [LIST]: () => (++attempts === 1 ? answer.promise : { body: incidentPage([7]) }),
    });
    expect(await screen.findByTestId('incidents-loading')).toBeInTheDocument();
    answer.resolve({ status: 500, body: { detail: 'Database unavailable' } });
    const error = await screen.findByTestId('incidents-error');
    expect(error).toHaveTextContent('Could not load incidents');
    expect(error).toHaveTextContent('Database unavailable');
    await user.click(screen.getByTestId('incidents-retry'));
    await waitFor(() => expect(renderedKeys()).toEqual([7]));
  });

  it('ignores a response that arrives after a newer request, and aborts the older request', async () => {
    const older = deferred<{ body: unknown }>();
    const { fetchMock, user } = openIncidents('/incidents?search=first', {
      [LIST]: (request) =>
        request.url.searchParams.get('search') === 'first' ? older.promise : { body: incidentPage([2002]) },
    });
    await screen.findByTestId('incidents-loading');
    await user.clear(screen.getByTestId('incidents-search-input'));
    await user.type(screen.getByTestId('incidents-search-input'), 'second{Enter}');
    await waitFor(() => expect(renderedKeys()).toEqual([2002]));

    older.resolve({ body: incidentPage([1001]) });
    await settle();
    expect(renderedKeys()).toEqual([2002]);
    expect(callsTo(fetchMock, LIST)[0]?.signal?.aborted).toBe(true);
  });

  it('opens the summary panel of a clicked card, with a link to the incident', async () => {
    const { user } = openIncidents();
    await waitFor(() => expect(renderedKeys()).toContain(2));
    expect(screen.queryByTestId('incident-side-panel')).not.toBeInTheDocument();
    await user.click(screen.getAllByTestId('incident-card')[1]!);
    const panel = await screen.findByTestId('incident-side-panel');
    expect(panel).toHaveAttribute('data-key', '2');
    expect(panel).toHaveTextContent('Suspicious activity 2');
    expect(panel).toHaveTextContent('IS-0001 · Main office');
    expect(panel).toHaveTextContent('Vision');
    expect(panel).toHaveTextContent('Malware');
    expect(panel).toHaveTextContent('SOC analyst');
    expect(within(panel).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/inc/2');
    expect(screen.getAllByTestId('incident-card')[1]).toHaveAttribute('aria-current', 'true');
  });

  it('selects with the keyboard and moves between cards with the arrow keys', async () => {
    const { user } = openIncidents();
    await waitFor(() => expect(renderedKeys()).toContain(2));
    screen.getAllByTestId('incident-card')[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toHaveAttribute('data-key', '2');
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('incident-side-panel')).toHaveAttribute('data-key', '2');
    await user.click(screen.getByTestId('incident-side-panel-close'));
    expect(screen.queryByTestId('incident-side-panel')).not.toBeInTheDocument();
  });
});

describe('IncidentsPage: a full load', () => {
  it('shows the first page its preload asked for, with the stored filters, without asking again', async () => {
    writeStoredFilters(INCIDENTS_FILTER_ENTITY, 'priority__in=critical&ordering=-updated');
    authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
    const fetchMock = mockFetch(
      baseRoutes({ [LIST]: pagedIncidents(100), [FILTERS]: { body: filterChoices } }),
    );
    const client = appQueryClient();
    // what app/router/routes.tsx does once the page's chunk has arrived
    prefetchPage(client, new URL('http://localhost/incidents'));
    await waitFor(() => expect(callsTo(fetchMock, LIST)).toHaveLength(1));
    renderApp('/incidents', client);
    await waitFor(() => expect(renderedKeys()).toContain(1));
    // a key that differed from the page's would have sent a second request
    expect(listQueries(fetchMock)).toEqual([
      { limit: '40', offset: '0', ordering: '-updated', priority__in: 'critical', language: 'en' },
    ]);
  });
});
