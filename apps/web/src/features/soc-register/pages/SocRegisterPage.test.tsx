import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch, settle, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser, staffUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { openSelect, pickOption } from '../../incidents/test/pageHarness.ts';
import { makeCard } from '../../incident-page/test/incidentCardFixtures.ts';

const CREATE = 'POST /api/v0/analyst/incidents/';
const FIRST_PAINT = { timeout: 15_000 };
const page = <T,>(results: T[]) => ({
  body: { total: results.length, total_exact: true, next: null, previous: null, results },
});
const north = { id: 1, is_id: 'IS-0001', full_name: 'North Wind' };
const south = { id: 2, is_id: 'IS-0002', full_name: 'South Star' };
const systemCard = {
  ...south,
  status: 'active',
  services: [
    { id: 31, name: 'MDR Standard', contract: null, start_date: '2026-01-01', sla: [] },
    { id: 32, name: 'MDR Premium', contract: null, start_date: '2026-01-01', sla: [] },
  ],
  service_manager: null,
  service_manager_double: null,
  dedicated_analyst: null,
  dedicated_analyst_double: null,
  customer_contacts: [],
};

const lookupRoutes: MockRoutes = {
  'GET /api/v0/soc/issue_types/': page([{ id: 1, title: 'Incident', code: 'incident' }]),
  'GET /api/v0/soc/systems/': page([north, south]),
  'GET /api/v0/soc/systems/2/': { body: systemCard },
  'GET /api/v0/soc/issues/1/categories/': page([
    { id: 10, title: 'Malware', code: 'malware' },
    { id: 11, title: 'Phishing', code: 'phishing' },
  ]),
};

function open(path: string, routes: MockRoutes = {}, user = staffUser) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(
    baseRoutes({ 'GET /api/v0/auth/user/': { body: user }, ...lookupRoutes, ...routes }),
  );
  return { ...renderApp(path), fetchMock };
}

type FetchMock = ReturnType<typeof mockFetch>;
const analystCalls = (fetchMock: FetchMock) =>
  fetchMock.mock.calls
    .map(([input]) => String(input instanceof Request ? input.url : input))
    .filter((url) => url.includes('/analyst/'));
const fieldOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;
const toasts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');

async function fillRequired(user: UserEvent) {
  await openSelect(user, 'register-system');
  await pickOption(user, 'IS-0002 · South Star');
  await openSelect(user, 'register-issuetype');
  await pickOption(user, 'Incident');
  await waitFor(() =>
    expect(within(screen.getByTestId('register-category')).getByRole('combobox')).toBeEnabled(),
  );
  await openSelect(user, 'register-category');
  await pickOption(user, 'Phishing');
  await openSelect(user, 'register-priority');
  await pickOption(user, 'High');
  await user.type(screen.getByTestId('register-summary'), 'Phishing wave at South Star');
}

beforeEach(() => window.localStorage.clear());
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('SOC incident registration', () => {
  it('refuses to send the form while a required field is missing', async () => {
    const { user, fetchMock } = open('/soc/incidents/new');
    await user.click(await screen.findByTestId('soc-register-submit', {}, FIRST_PAINT));
    for (const testId of [
      'register-system',
      'register-issuetype',
      'register-category',
      'register-priority',
      'register-summary',
    ]) {
      expect(await within(fieldOf(testId)).findByText('This field is required')).toBeInTheDocument();
    }
    // an added alert row needs its title, severity and platform too
    await fillRequired(user);
    await user.click(screen.getByTestId('register-alert-add'));
    await user.click(screen.getByTestId('soc-register-submit'));
    expect(
      await within(fieldOf('register-alert-0-title')).findByText('This field is required'),
    ).toBeInTheDocument();
    expect(
      within(fieldOf('register-alert-0-severity')).getByText('This field is required'),
    ).toBeInTheDocument();
    await settle();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });

  it('sends every filled field once with an Idempotency-Key, then opens the new incident', async () => {
    const { user, fetchMock, router } = open('/soc/incidents/new', {
      [CREATE]: { status: 201, body: { ...makeCard({ key: 5001 }), soc_assignee: null } },
    });
    await screen.findByTestId('soc-register-form', {}, FIRST_PAINT);
    await fillRequired(user);
    await openSelect(user, 'register-service');
    await pickOption(user, 'MDR Premium');
    await user.type(screen.getByTestId('register-description-input'), 'Mail with a **macro**.');
    await user.type(within(screen.getByTestId('register-tags')).getByRole('combobox'), 'phishing{Enter}');
    await user.click(screen.getByTestId('register-ioc-add'));
    await openSelect(user, 'register-ioc-type-0');
    await pickOption(user, 'IPv4 addresses');
    await user.type(screen.getByTestId('register-ioc-value-0'), '203.0.113.7');
    await user.click(screen.getByTestId('register-alert-add'));
    await user.type(screen.getByTestId('register-alert-0-title'), 'Macro launched PowerShell');
    await openSelect(user, 'register-alert-0-severity');
    await pickOption(user, 'High');
    await openSelect(user, 'register-alert-0-platform');
    await pickOption(user, 'Windows');

    await user.click(screen.getByTestId('soc-register-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/inc/5001'));
    const [sent] = callsTo(fetchMock, CREATE);
    const alertUuid = (sent!.body as { alerts: { uuid: string }[] }).alerts[0]!.uuid;
    expect(alertUuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent!.body).toEqual({
      system: 2,
      issuetype: 1,
      service: 32,
      primary_category: 11,
      secondary_category: [],
      summary: 'Phishing wave at South Star',
      priority: 'high',
      description: 'Mail with a **macro**.',
      recommendations: '',
      status_description: '',
      tags: ['phishing'],
      affected_systems: [],
      activity_detected_at: null,
      gossopka_planned_time: null,
      detection_rules: [],
      mitre_cov: {},
      affected_assets: [],
      observed_iocs: [{ ioc_type: 'ipv4', ioc: '203.0.113.7' }],
      alerts: [
        {
          uuid: alertUuid,
          title: 'Macro launched PowerShell',
          severity: 'High',
          platform: 'windows',
          priority: 'medium',
          rule: '',
          description: '',
        },
      ],
    });
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(toasts().join(' ')).toContain('Incident 5001 registered'));
  });

  it('shows the server’s field messages under their fields and the rest in the form alert', async () => {
    const { user, fetchMock } = open('/soc/incidents/new', {
      [CREATE]: {
        status: 400,
        body: {
          primary_category: ['The category does not belong to the issue type.'],
          observed_iocs: ['Enter a valid IPv4 address.'],
          non_field_errors: ['The tenant is suspended.'],
        },
      },
    });
    await screen.findByTestId('soc-register-form', {}, FIRST_PAINT);
    await fillRequired(user);
    await user.click(screen.getByTestId('register-ioc-add'));
    await openSelect(user, 'register-ioc-type-0');
    await pickOption(user, 'IPv4 addresses');
    await user.type(screen.getByTestId('register-ioc-value-0'), '203.0.113.7');
    await user.click(screen.getByTestId('soc-register-submit'));

    expect(
      await within(fieldOf('register-category')).findByText(
        'The category does not belong to the issue type.',
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('soc-register-iocs')).getByText('Enter a valid IPv4 address.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('soc-register-form-error')).toHaveTextContent('The tenant is suspended.');
    expect(callsTo(fetchMock, CREATE)).toHaveLength(1);
  });

  it('sends a retry after a failure with the same Idempotency-Key, so one incident is registered', async () => {
    let fail = true;
    const { user, fetchMock, router } = open('/soc/incidents/new', {
      [CREATE]: () =>
        fail
          ? { status: 503, body: { detail: 'Temporarily unavailable.' } }
          : { status: 201, body: { ...makeCard({ key: 5002 }), soc_assignee: null } },
    });
    await screen.findByTestId('soc-register-form', {}, FIRST_PAINT);
    await fillRequired(user);
    await user.click(screen.getByTestId('soc-register-submit'));
    expect(await screen.findByTestId('soc-register-form-error')).toHaveTextContent(
      'Registering the incident: error',
    );
    fail = false;
    await user.click(screen.getByTestId('soc-register-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/inc/5002'));
    const [first, second] = callsTo(fetchMock, CREATE);
    expect(second!.headers.get('Idempotency-Key')).toBe(first!.headers.get('Idempotency-Key'));
    expect(second!.body).toEqual(first!.body);
  });

  it('tells a customer the page is not available and asks the analyst API nothing', async () => {
    const { fetchMock } = open('/soc/incidents/new', {}, currentUser);
    expect(await screen.findByTestId('soc-not-available', {}, FIRST_PAINT)).toHaveTextContent(
      'This page is not available',
    );
    expect(screen.queryByTestId('soc-register-form')).not.toBeInTheDocument();
    await settle();
    expect(analystCalls(fetchMock)).toEqual([]);
  });

  it('is opened from the queue’s header', async () => {
    const { user, router } = open('/soc/queue', {
      'GET /api/v0/analyst/queue/': page([]),
      'GET /api/v0/analyst/queue/counts/': { body: { results: [], total: 0 } },
      'GET /api/v0/soc/filters/': {
        body: {
          systems: [north, south],
          issue_types: [],
          categories: [],
          resolutions: [],
          priorities: [],
          statuses: [],
          base_services: [],
          users: [],
        },
      },
    });
    await user.click(await screen.findByTestId('soc-queue-register', {}, FIRST_PAINT));
    expect(await screen.findByTestId('soc-register-form', {}, FIRST_PAINT)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/soc/incidents/new');
  });

  it('speaks Russian', async () => {
    await i18n.changeLanguage('ru');
    const { user } = open('/soc/incidents/new');
    expect(await screen.findByRole('heading', { level: 1 }, FIRST_PAINT)).toHaveTextContent(
      'Регистрация инцидента',
    );
    await user.click(screen.getByTestId('soc-register-submit'));
    expect(await within(fieldOf('register-summary')).findByText('Обязательное поле')).toBeInTheDocument();
  });
});
