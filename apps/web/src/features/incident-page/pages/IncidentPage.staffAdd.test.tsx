import type { Ioc } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, settle } from '../../../test/fetchMock.ts';
import { staffUser } from '../../../test/fixtures.ts';
import { openSelect, pickOption } from '../../incidents/test/pageHarness.ts';
import { ACTIONS, CARD, KEY, makeCard, openIncident } from '../test/incidentCardFixtures.ts';

const STAFF_CARD = `GET /api/v0/analyst/incidents/${KEY}/`;
const STAFF_PATCH = `PATCH /api/v0/analyst/incidents/${KEY}/`;
const ADD_ALERTS = `POST /api/v0/analyst/incidents/${KEY}/alerts/`;
const FIRST_PAINT = { timeout: 15_000 };
const old: Ioc = { ioc: '203.0.113.7', ioc_type: 'ipv4', category: ['C2'] };

function openAsStaff(routes: Parameters<typeof openIncident>[0] = {}, path?: string) {
  return openIncident(
    {
      'GET /api/v0/auth/user/': { body: staffUser },
      [STAFF_CARD]: { body: { ...makeCard(), soc_assignee: null } },
      [`GET /api/v0/analyst/incidents/${KEY}/notes/`]: {
        body: { total: 0, next: null, previous: null, results: [] },
      },
      'GET /api/v0/analyst/staff/': { body: { total: 0, next: null, previous: null, results: [] } },
      [ACTIONS]: { body: { results: [] } },
      ...routes,
    },
    path,
  );
}

describe('incident page: staff add IOCs and alerts', () => {
  it('appends a new IOC to the current ones and sends the list whole', async () => {
    let iocs: Ioc[] = [old];
    const { user, fetchMock } = openAsStaff(
      {
        [CARD]: () => ({ body: makeCard({ observed_iocs: iocs }) }),
        [STAFF_PATCH]: (request) => {
          iocs = (request.body as { observed_iocs: Ioc[] }).observed_iocs;
          return { body: { ...makeCard({ observed_iocs: iocs }), soc_assignee: null } };
        },
      },
      `/inc/${KEY}?tab=iocs`,
    );
    await user.click(await screen.findByTestId('incident-ioc-add', {}, FIRST_PAINT));
    const modal = await screen.findByTestId('incident-ioc-modal');
    await openSelect(user, 'incident-ioc-type');
    await pickOption(user, 'Domains');
    await user.type(within(modal).getByTestId('incident-ioc-value'), 'not a domain');
    await user.click(within(modal).getByTestId('incident-ioc-save'));
    expect(await within(modal).findByText('Not a valid value of this type')).toBeInTheDocument();
    expect(callsTo(fetchMock, STAFF_PATCH)).toHaveLength(0);

    await user.clear(within(modal).getByTestId('incident-ioc-value'));
    await user.type(within(modal).getByTestId('incident-ioc-value'), 'evil.example');
    await user.click(within(modal).getByTestId('incident-ioc-save'));
    await waitFor(() => expect(callsTo(fetchMock, STAFF_PATCH)).toHaveLength(1));
    expect(callsTo(fetchMock, STAFF_PATCH)[0]!.body).toEqual({
      observed_iocs: [old, { ioc: 'evil.example', ioc_type: 'fqdn', category: [] }],
    });
    expect(await screen.findByTestId('ioc-group-fqdn')).toHaveTextContent('evil.example');
    expect(screen.getByTestId('ioc-group-ipv4')).toHaveTextContent('203.0.113.7');
  });

  it('removes an IOC by sending the list without it', async () => {
    const other: Ioc = { ioc: 'evil.example', ioc_type: 'fqdn', category: [] };
    let iocs: Ioc[] = [old, other];
    const { user, fetchMock } = openAsStaff(
      {
        [CARD]: () => ({ body: makeCard({ observed_iocs: iocs }) }),
        [STAFF_PATCH]: (request) => {
          iocs = (request.body as { observed_iocs: Ioc[] }).observed_iocs;
          return { body: { ...makeCard({ observed_iocs: iocs }), soc_assignee: null } };
        },
      },
      `/inc/${KEY}?tab=iocs`,
    );
    const group = await screen.findByTestId('ioc-group-ipv4', {}, FIRST_PAINT);
    const remove = within(group).getByTestId('incident-ioc-remove');
    expect(remove).toHaveAccessibleName('Remove 203.0.113.7');
    await user.click(remove);
    await user.click(await screen.findByTestId('incident-ioc-remove-confirm'));
    await waitFor(() => expect(callsTo(fetchMock, STAFF_PATCH)).toHaveLength(1));
    expect(callsTo(fetchMock, STAFF_PATCH)[0]!.body).toEqual({ observed_iocs: [other] });
    await waitFor(() => expect(screen.queryByTestId('ioc-group-ipv4')).not.toBeInTheDocument());
  });

  it('adds an alert with its required fields, a new uuid and an Idempotency-Key', async () => {
    const { user, fetchMock } = openAsStaff({
      [ADD_ALERTS]: (request) => ({
        body: {
          created: [(request.body as { alerts: { uuid: string }[] }).alerts[0]!.uuid],
          existing: [],
          conflicts: [],
        },
      }),
    });
    // the alerts tab stays open for staff while the incident has none
    const tab = await screen.findByTestId('incident-tab-alerts', {}, FIRST_PAINT);
    await user.click(tab);
    await user.click(await screen.findByTestId('incident-alert-add'));
    const modal = await screen.findByTestId('incident-alert-modal');
    await user.click(within(modal).getByTestId('incident-alert-save'));
    expect((await within(modal).findAllByText('This field is required')).length).toBe(3);
    expect(callsTo(fetchMock, ADD_ALERTS)).toHaveLength(0);

    await user.type(within(modal).getByTestId('incident-alert-title'), 'Beacon every 60 s');
    await openSelect(user, 'incident-alert-severity');
    await pickOption(user, 'Medium');
    await openSelect(user, 'incident-alert-platform');
    await pickOption(user, 'Network');
    await user.click(within(modal).getByTestId('incident-alert-save'));
    await waitFor(() => expect(callsTo(fetchMock, ADD_ALERTS)).toHaveLength(1));
    const [sent] = callsTo(fetchMock, ADD_ALERTS);
    const uuid = (sent!.body as { alerts: { uuid: string }[] }).alerts[0]!.uuid;
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent!.body).toEqual({
      alerts: [
        {
          uuid,
          title: 'Beacon every 60 s',
          severity: 'Medium',
          platform: 'network',
          priority: 'medium',
          rule: '',
          description: '',
        },
      ],
    });
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives a customer no way to add or remove IOCs or alerts', async () => {
    openIncident({}, `/inc/${KEY}?tab=iocs`);
    const group = await screen.findByTestId('ioc-group-ipv4', {}, FIRST_PAINT);
    expect(group).toHaveTextContent('203.0.113.7');
    await settle();
    expect(screen.queryByTestId('incident-ioc-add')).not.toBeInTheDocument();
    expect(screen.queryByTestId('incident-ioc-remove')).not.toBeInTheDocument();
    expect(screen.queryByTestId('incident-alert-add')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Alerts' })).toHaveAttribute('aria-disabled', 'true');
  });
});
