import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeStoredFilters } from '@/shared/lib/filters.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, settle } from '../../../test/fetchMock.ts';
import {
  closeSelect,
  FILTERS,
  LIST,
  openIncidents,
  openSelect,
  pickOption,
  renderedKeys,
  stubListLayout,
} from '../test/pageHarness.ts';

beforeEach(stubListLayout);
afterEach(() => vi.restoreAllMocks());

type FetchMock = Parameters<typeof callsTo>[0];
const lastListQuery = (fetchMock: FetchMock) =>
  Object.fromEntries(callsTo(fetchMock, LIST).at(-1)?.url.searchParams ?? []);
const storedFilters = () =>
  (JSON.parse(window.localStorage.getItem('filters') ?? '{}') as Record<string, string>).incidents;

async function openLoaded(path = '/incidents') {
  const app = openIncidents(path);
  await waitFor(() => expect(renderedKeys().length).toBeGreaterThan(0));
  return app;
}

describe('IncidentsPage: filters, sort and search', () => {
  it('takes its initial filters, sort and search from the query string and stores them', async () => {
    const { fetchMock, user } = await openLoaded(
      '/incidents?status__in=closed,canceled&ordering=priority&search=vpn&sla_breached=true&bogus=1',
    );
    expect(lastListQuery(fetchMock)).toMatchObject({
      status__in: 'closed,canceled',
      ordering: 'priority',
      search: 'vpn',
      sla_breached: 'true',
      language: 'en',
    });
    expect(lastListQuery(fetchMock)).not.toHaveProperty('bogus');
    expect(screen.getByTestId('incidents-search-input')).toHaveValue('vpn');
    expect(screen.getByTestId('incidents-sort')).toHaveTextContent('Priority: ascending');
    expect(storedFilters()).toContain('status__in=closed%2Ccanceled');

    await user.click(screen.getByTestId('incidents-filter-toggle'));
    const row = screen.getByTestId('incidents-filter-row');
    expect(within(row).getByTestId('filter-status')).toHaveTextContent('Closed');
    expect(within(row).getByTestId('filter-sla-breached')).toHaveTextContent('Breached');
  });

  it('restores the stored filters when the URL has none', async () => {
    writeStoredFilters('incidents', 'priority__in=critical&ordering=-updated');
    const { fetchMock, router } = await openLoaded('/incidents');
    expect(callsTo(fetchMock, LIST)).toHaveLength(1);
    expect(lastListQuery(fetchMock)).toMatchObject({ priority__in: 'critical', ordering: '-updated' });
    expect(router.state.location.search).toBe('?priority__in=critical&ordering=-updated');
  });

  it('searches with the trimmed text on the button and on Enter', async () => {
    const { fetchMock, user, router } = await openLoaded();
    await user.type(screen.getByTestId('incidents-search-input'), '  phishing  ');
    await user.click(screen.getByTestId('incidents-search-button'));
    await waitFor(() => expect(lastListQuery(fetchMock)).toMatchObject({ search: 'phishing' }));
    expect(router.state.location.search).toBe('?search=phishing');

    await user.clear(screen.getByTestId('incidents-search-input'));
    await user.type(screen.getByTestId('incidents-search-input'), 'vpn{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?search=vpn'));
    expect(storedFilters()).toBe('search=vpn');
  });

  it('sorts by the chosen field and direction', async () => {
    const { fetchMock, user, router } = await openLoaded();
    await openSelect(user, 'incidents-sort');
    await pickOption(user, 'Updated: oldest first');
    await waitFor(() => expect(lastListQuery(fetchMock)).toMatchObject({ ordering: 'updated' }));
    expect(router.state.location.search).toBe('?ordering=updated');
  });

  it('applies a multiselect filter when it closes, and only when it changed', async () => {
    const { fetchMock, user, router } = await openLoaded();
    await user.click(screen.getByTestId('incidents-filter-toggle'));
    const requestsBefore = callsTo(fetchMock, LIST).length;

    await openSelect(user, 'filter-status');
    await pickOption(user, 'Closed');
    await pickOption(user, 'Work in progress');
    expect(callsTo(fetchMock, LIST)).toHaveLength(requestsBefore);
    closeSelect();
    await waitFor(() => expect(callsTo(fetchMock, LIST)).toHaveLength(requestsBefore + 1));
    expect(lastListQuery(fetchMock).status__in?.split(',').sort()).toEqual(['closed', 'work_in_progress']);
    expect(router.state.location.search).toBe('?status__in=closed%2Cwork_in_progress');

    // Opening and closing without a change sends nothing.
    await openSelect(user, 'filter-status');
    closeSelect();
    await settle();
    expect(callsTo(fetchMock, LIST)).toHaveLength(requestsBefore + 1);
  });

  it('filters by SLA breached and national centre in both languages', async () => {
    await i18n.changeLanguage('ru');
    const { fetchMock, user, router } = await openLoaded();
    await user.click(screen.getByTestId('incidents-filter-toggle'));
    await openSelect(user, 'filter-sla-breached');
    await pickOption(user, 'Не нарушен');
    await waitFor(() =>
      expect(lastListQuery(fetchMock)).toMatchObject({ sla_breached: 'false', language: 'ru' }),
    );
    await openSelect(user, 'filter-gossopka');
    await pickOption(user, 'Отправлен');
    await waitFor(() => expect(router.state.location.search).toContain('gossopka_id__isnull=false'));
    expect(lastListQuery(fetchMock)).toMatchObject({ gossopka_id__isnull: 'false' });
  });

  it('offers only the categories of the chosen issue types and loads the choices once', async () => {
    const { fetchMock, user } = await openLoaded('/incidents?issuetype__in=2&category__in=10,20');
    await user.click(screen.getByTestId('incidents-filter-toggle'));
    // Category 10 belongs to issue type 1, so it is not offered while only type 2 is chosen.
    await openSelect(user, 'filter-category');
    await waitFor(() =>
      expect(document.querySelector('.ant-select-item-option[title="Question"]')).not.toBeNull(),
    );
    expect(document.querySelector('.ant-select-item-option[title="Malware"]')).toBeNull();
    expect(callsTo(fetchMock, FILTERS)).toHaveLength(1);
    expect(Object.fromEntries(callsTo(fetchMock, FILTERS)[0]!.url.searchParams)).toEqual({ language: 'en' });
  });

  it('resets filters, sort and search', async () => {
    const { fetchMock, user, router } = await openLoaded(
      '/incidents?status__in=closed&ordering=priority&search=vpn',
    );
    await user.click(screen.getByTestId('incidents-filter-reset'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(lastListQuery(fetchMock)).toEqual({
        limit: '40',
        offset: '0',
        ordering: '-created',
        language: 'en',
      }),
    );
    expect(screen.getByTestId('incidents-search-input')).toHaveValue('');
    expect(window.localStorage.getItem('filters')).toBeNull();
  });

  it('restores earlier filters on back and forward', async () => {
    const { fetchMock, user, router } = await openLoaded('/incidents?status__in=closed');
    await user.type(screen.getByTestId('incidents-search-input'), 'vpn{Enter}');
    await waitFor(() =>
      expect(lastListQuery(fetchMock)).toMatchObject({ search: 'vpn', status__in: 'closed' }),
    );
    await router.navigate(-1);
    await waitFor(() => expect(screen.getByTestId('incidents-search-input')).toHaveValue(''));
    expect(router.state.location.search).toBe('?status__in=closed');
    await router.navigate(1);
    await waitFor(() => expect(screen.getByTestId('incidents-search-input')).toHaveValue('vpn'));
  });
});
