import type { Alert, AlertDetail } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo } from '../../../test/fetchMock.ts';
import { ALERTS, KEY, openIncident } from '../../incident-page/test/incidentCardFixtures.ts';

const UUID = '0a1b2c3d-0000-4000-8000-000000000001';
const OTHER = '0a1b2c3d-0000-4000-8000-000000000002';
const base = `GET /api/v0/soc/incs/${KEY}/alerts/${UUID}/`;

function makeAlert(uuid: string, overrides: Partial<Alert> = {}): Alert {
  return {
    uuid,
    severity: 'High',
    title: 'Encoded PowerShell started by an Office document',
    affected_assets: [{ cmdb_id: 'IS-0001-00001', name: 'ws-0142', ip_address: '10.10.0.2' }],
    created_time: Date.UTC(2026, 10, 20, 10, 0),
    updated_time: Date.UTC(2026, 10, 20, 11, 0),
    tags: [
      { name: 'edr', color: 'blue' },
      { name: 'c2', color: 'magenta' },
      { name: 'vip-host', color: 'gold' },
      { name: 'needs-review', color: 'purple' },
      { name: 'phishing', color: 'volcano' },
    ],
    response_team: null,
    status: 'new',
    priority: 'high',
    state: 'unclassified',
    group: 42,
    platform: 'windows',
    incident: KEY,
    grouped: true,
    system: { id: 1, is_id: 'IS-0001', full_name: 'Main office' },
    assignee: null,
    source_tag: 'EDR: Office child process spawned a shell',
    ...overrides,
  };
}

const detail = (uuid: string): AlertDetail => ({
  ...makeAlert(uuid),
  description: 'winword.exe spawned cmd.exe',
  rule: 'WIN-PS-ENC-001',
  classification_details: '',
  events_count: 3,
});

const page = (alerts: Alert[]) => ({ total: alerts.length, next: null, previous: null, results: alerts });

describe('alerts tab', () => {
  it('selects the first alert, clips tags, shows grouped data, the tree error and symptomatic alerts', async () => {
    const { user, fetchMock } = openIncident({
      [ALERTS]: {
        body: page([makeAlert(UUID), makeAlert(OTHER, { severity: 'Low', title: 'Second', tags: [] })]),
      },
      [base]: { body: detail(UUID) },
      [`${base}grouped_alert_data/`]: {
        body: { events_count: 3, results: [{ field: 'process', values: [{ value: 'cmd.exe', count: 2 }] }] },
      },
      [`${base}tree/`]: {
        status: 400,
        body: { non_field_errors: ['The alert has no process events to build a tree from.', 'second'] },
      },
      [`${base}symptomatic/`]: { body: page([makeAlert(OTHER, { title: 'Second' })]) },
      [`GET /api/v0/alerts/${UUID}/available_links_templates/`]: { body: { results: [] } },
      'GET /api/v0/soc/tags/': { body: { results: [] } },
      'GET /api/v0/soc/response_teams/': { body: { results: [{ id: 3, name: 'Blue team' }] } },
    });
    const tab = await screen.findByTestId('incident-tab-alerts', {}, { timeout: 10_000 });
    await waitFor(() => expect(tab.closest('[role="tab"]')).toHaveAttribute('aria-disabled', 'false'), {
      timeout: 10_000,
    });
    await user.click(tab);

    const table = await screen.findByTestId('alerts-table', {}, { timeout: 10_000 });
    const firstRow = within(table).getByTestId(`alert-row-${UUID}`);
    // three tags then +2; the source tag clipped to 24 characters
    expect(within(firstRow).getByTestId('alert-tags-more')).toHaveTextContent('+2');
    expect(within(firstRow).getByTestId('alert-source-tag').textContent).toHaveLength(24);
    expect(screen.getByTestId('alerts-count')).toHaveTextContent('1-2 of 2');

    const panel = await screen.findByTestId('alert-detail', {}, { timeout: 10_000 });
    expect(panel).toHaveAttribute('data-uuid', UUID);
    expect(within(panel).getByTestId('alert-incident-link')).toHaveAttribute('target', '_blank');
    expect(within(panel).getByTestId('alert-incident-link')).toHaveAttribute('href', `/inc/${KEY}`);
    expect(await screen.findByTestId('alert-tree-error', {}, { timeout: 10_000 })).toHaveTextContent(
      'The alert has no process events to build a tree from.',
    );
    expect(screen.getByTestId('alert-tree-error')).not.toHaveTextContent('second');
    expect(await within(panel).findByText('cmd.exe ×2', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(
      await within(screen.getByTestId('alert-symptomatic')).findByText('Second', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, ALERTS)[0]?.url.searchParams.get('page')).toBe('1');
  });
});
