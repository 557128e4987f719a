import type { Alert } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes, staffUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const LIST = 'GET /api/v0/soc/alerts/';
const system = { id: 1, is_id: 'IS-0001', full_name: 'North Wind' };
const page = <T,>(results: T[], total = results.length) => ({ total, next: null, previous: null, results });
const FIRST_PAINT = { timeout: 15_000 };

const makeAlert = (n: number, overrides: Partial<Alert> = {}): Alert => ({
  uuid: `0a1b2c3d-0000-4000-8000-00000000000${n}`,
  severity: 'High',
  title: `Mimikatz on ws-${n}`,
  affected_assets: [{ cmdb_id: `c-${n}`, name: `ws-${n}`, ip_address: '10.0.0.1' }],
  created_time: Date.UTC(2026, 10, 25, 10, 0),
  updated_time: Date.UTC(2026, 10, 25, 11, 0),
  tags: [],
  response_team: null,
  status: 'new',
  priority: 'high',
  state: 'unclassified',
  group: null,
  platform: 'windows',
  incident: null,
  grouped: false,
  system,
  assignee: null,
  source_tag: 'EDR',
  ...overrides,
});

const BULK = 'POST /api/v0/soc/alerts/bulk/';

function open(path: string, routes: MockRoutes) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(
    baseRoutes({ 'GET /api/v0/soc/systems/': { body: page([system]) }, ...routes }),
  );
  return { ...renderApp(path), fetchMock };
}

beforeEach(() => {
  window.localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? 96 : 0;
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'alerts-list' ? 600 : 0;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('alerts screen', () => {
  it('lists the alerts with the URL filters, links to the incident, and shows an alert in the panel', async () => {
    const { user, fetchMock } = open('/alerts?severity__in=High&colour=red', {
      [LIST]: { body: page([makeAlert(1, { incident: 10234, grouped: true }), makeAlert(2)], 2) },
    });
    const cards = await screen.findAllByTestId('alert-card', {}, FIRST_PAINT);
    expect(cards).toHaveLength(2);
    expect(screen.getByTestId('alerts-total')).toHaveTextContent('1-2 of 2');
    await waitFor(() => expect(document.title).toMatch(/^Alerts \| /));
    // an unknown parameter in the URL never reaches the server; the sort in effect does
    const query = callsTo(fetchMock, LIST)[0]!.url.searchParams;
    expect(query.get('severity__in')).toBe('High');
    expect(query.get('colour')).toBeNull();
    expect(query.get('ordering')).toBe('-created_time');
    expect(within(cards[0]!).getByTestId('alert-card-incident')).toHaveAttribute('href', '/inc/10234');
    expect(cards[1]).toHaveTextContent('Not in an incident');

    await user.click(within(cards[1]!).getByTestId('alert-card-title'));
    const summary = await screen.findByTestId('alert-summary');
    expect(summary).toHaveTextContent('Mimikatz on ws-2');
    expect(summary).toHaveTextContent('IS-0001 · North Wind');
    expect(cards[1]).toHaveAttribute('data-selected', 'true');
  });

  it('says what was searched when nothing is found, and clears it', async () => {
    const { user, fetchMock } = open('/alerts?search=kerberos', {
      [LIST]: (request) => ({
        body: page(request.url.searchParams.has('search') ? [] : [makeAlert(3)]),
      }),
    });
    const empty = await screen.findByTestId('alerts-empty', {}, FIRST_PAINT);
    expect(empty).toHaveTextContent('Nothing found for “kerberos”.');
    await user.click(within(empty).getByTestId('alerts-empty-clear'));
    await screen.findByTestId('alert-card');
    expect(callsTo(fetchMock, LIST).at(-1)!.url.searchParams.get('search')).toBeNull();
  });

  it('speaks Russian', async () => {
    await i18n.changeLanguage('ru');
    open('/alerts', { [LIST]: { body: page([makeAlert(4)]) } });
    expect(await screen.findByRole('heading', { level: 1 }, FIRST_PAINT)).toHaveTextContent('Алерты');
    expect(await screen.findByTestId('alert-card')).toHaveTextContent('Не в инциденте');
  });

  describe('bulk actions of the staff', () => {
    const asStaff = (routes: MockRoutes) =>
      open('/alerts', { 'GET /api/v0/auth/user/': { body: staffUser }, ...routes });
    const [one, two] = [makeAlert(1), makeAlert(2)];

    it('attaches the selected alerts to an incident and refreshes the list', async () => {
      let attached = false;
      const { user, fetchMock } = asStaff({
        [LIST]: () => ({
          body: page(
            attached
              ? [
                  { ...one, incident: 10234, grouped: true },
                  { ...two, incident: 10234 },
                ]
              : [one, two],
          ),
        }),
        [BULK]: () => {
          attached = true;
          return { body: { updated: 2, alerts: [one.uuid, two.uuid] } };
        },
      });
      await screen.findAllByTestId('alert-card', {}, FIRST_PAINT);
      expect(screen.getByTestId('alerts-bulk-attach')).toBeDisabled();
      await user.click(screen.getByRole('checkbox', { name: 'Select alert: Mimikatz on ws-1' }));
      await user.click(screen.getByRole('checkbox', { name: 'Select alert: Mimikatz on ws-2' }));
      expect(screen.getByTestId('alerts-selected')).toHaveTextContent('2 alerts selected');
      // picking does not open the alert
      expect(screen.queryByTestId('alert-summary')).not.toBeInTheDocument();

      await user.click(screen.getByTestId('alerts-bulk-attach'));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('Attach 2 alerts to an incident');
      await user.click(within(dialog).getByRole('button', { name: 'Attach' }));
      expect(await within(dialog).findByText('Enter the incident’s key')).toBeInTheDocument();
      expect(callsTo(fetchMock, BULK)).toHaveLength(0);

      await user.type(within(dialog).getByTestId('alerts-bulk-incident'), '10234');
      await user.click(within(dialog).getByRole('button', { name: 'Attach' }));
      expect(await screen.findByTestId('notification-success')).toHaveTextContent(
        '2 alerts attached to incident 10234',
      );
      expect(callsTo(fetchMock, BULK)[0]!.body).toEqual({
        alerts: [one.uuid, two.uuid],
        action: 'attach',
        issue: 10234,
      });
      await waitFor(() =>
        expect(screen.getAllByTestId('alert-card-incident').map((link) => link.getAttribute('href'))).toEqual(
          ['/inc/10234', '/inc/10234'],
        ),
      );
      expect(screen.getByTestId('alerts-selected')).not.toHaveTextContent('selected');
    });

    it('shows why the server refused to attach', async () => {
      const { user } = asStaff({
        [LIST]: { body: page([one]) },
        [BULK]: {
          status: 400,
          body: { issue: ['Alerts can only be attached to an incident of their own system.'] },
        },
      });
      await screen.findAllByTestId('alert-card', {}, FIRST_PAINT);
      await user.click(screen.getByRole('checkbox', { name: 'Select alert: Mimikatz on ws-1' }));
      await user.click(screen.getByTestId('alerts-bulk-attach'));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByTestId('alerts-bulk-incident'), '999');
      await user.click(within(dialog).getByRole('button', { name: 'Attach' }));
      const error = await screen.findByTestId('notification-error');
      expect(error).toHaveTextContent('The alerts were not attached');
      expect(error).toHaveTextContent('Alerts can only be attached to an incident of their own system.');
      expect(screen.getByRole('dialog')).toBeInTheDocument();
    });

    it('opens the new-incident form with the selected alerts', async () => {
      const { user, router } = asStaff({ [LIST]: { body: page([one, two]) } });
      const seen: string[] = [];
      router.subscribe((state) => seen.push(`${state.location.pathname}${state.location.search}`));
      await screen.findAllByTestId('alert-card', {}, FIRST_PAINT);
      await user.click(screen.getByRole('checkbox', { name: 'Select alert: Mimikatz on ws-2' }));
      await user.click(screen.getByRole('checkbox', { name: 'Select alert: Mimikatz on ws-1' }));
      await user.click(screen.getByTestId('alerts-bulk-create'));
      await waitFor(() => expect(seen[0]).toBe(`/soc/incidents/new?alerts=${two.uuid},${one.uuid}`));
    });

    it('are not there for customers', async () => {
      open('/alerts', { [LIST]: { body: page([one]) } });
      await screen.findAllByTestId('alert-card', {}, FIRST_PAINT);
      expect(screen.queryByTestId('alerts-bulk')).not.toBeInTheDocument();
      expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    });

    it('speak Russian', async () => {
      await i18n.changeLanguage('ru');
      const { user } = asStaff({ [LIST]: { body: page([one]) } });
      await screen.findAllByTestId('alert-card', {}, FIRST_PAINT);
      await user.click(screen.getByRole('checkbox', { name: 'Выбрать алерт: Mimikatz on ws-1' }));
      expect(screen.getByTestId('alerts-selected')).toHaveTextContent('Выбран 1 алерт');
      expect(screen.getByTestId('alerts-bulk-create')).toHaveTextContent('Создать инцидент из этих алертов');
    });
  });
});
