import type { IncidentListResponse, LiveEvent } from '@soc/contracts';
import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { incidentPage } from '../../incidents/test/incidentFixtures.ts';

/** The streams the app opened, to push server events into. */
const streams: FakeEventSource[] = [];

class FakeEventSource extends EventTarget {
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    super();
    streams.push(this);
  }
  close(): void {}
  push(event: LiveEvent): void {
    this.dispatchEvent(new MessageEvent(event.type, { data: JSON.stringify(event) }));
  }
}

const created = (key: number, reporterId: number | null): LiveEvent => ({
  id: key,
  type: 'incident.created',
  key,
  report_id: null,
  status: 'waiting_for_customer',
  previous_status: null,
  from_soc: null,
  summary: `Incident ${key}`,
  reporter_id: reporterId,
  created: 0,
});

describe('LiveUpdates', () => {
  beforeEach(() => {
    streams.length = 0;
    vi.stubGlobal('EventSource', FakeEventSource);
    authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  });

  it('warns of incidents others registered, never of the signed-in user’s own', async () => {
    mockFetch(
      baseRoutes({
        'GET /api/v0/auth/mfa/': { body: { sms: false, totp: false } },
        'POST /api/v0/events/ticket/': { body: { ticket: 't-1', expires_in: 60 } },
      }),
    );
    renderApp('/changepassword');
    await screen.findByTestId('totp-card');
    await vi.waitFor(() => expect(streams).toHaveLength(1), { timeout: 5000 });
    act(() => {
      streams[0]!.push(created(10001, currentUser.id));
      streams[0]!.push(created(10002, currentUser.id + 1));
      streams[0]!.push(created(10003, null));
    });
    expect(await screen.findByText('New incident 10002')).toBeInTheDocument();
    expect(screen.getByText('New incident 10003')).toBeInTheDocument();
    expect(screen.queryByText('New incident 10001')).not.toBeInTheDocument();
  });

  it('keeps the dashboard’s poll from warning the user of their own new incident', async () => {
    const NEWEST = 'GET /api/v0/soc/incs/';
    let newest = 20000;
    const fetchMock = mockFetch(
      baseRoutes({
        'POST /api/v0/events/ticket/': { body: { ticket: 't-1', expires_in: 60 } },
        [NEWEST]: () => ({ body: incidentPage([newest]) }),
      }),
    );
    const { queryClient } = renderApp('/dashboard');
    await vi.waitFor(() => expect(streams).toHaveLength(1), { timeout: 5000 });
    const newestSeen = () =>
      queryClient
        .getQueryCache()
        .findAll({ queryKey: ['dashboard', 'newest'] })
        .map((q) => (q.state.data as IncidentListResponse | undefined)?.results[0]?.key);
    // the dashboard is a lazy chunk: give it time to load
    await vi.waitFor(() => expect(newestSeen()).toContain(20000), { timeout: 5000 });
    // and let it render that answer (one macrotask), so that it knows 20000 as the newest seen
    const rendered = () => act(() => new Promise<void>((done) => setTimeout(done, 0)));
    await rendered();
    const polls = callsTo(fetchMock, NEWEST).length;
    // the live event refreshes the dashboard's newest incident: the poll now sees the user's own
    newest = 20001;
    act(() => streams[0]!.push(created(20001, currentUser.id)));
    await vi.waitFor(() => expect(callsTo(fetchMock, NEWEST).length).toBeGreaterThan(polls));
    // let the dashboard take that answer before the next event's refetch would cancel it
    await vi.waitFor(() => expect(newestSeen()).toContain(20001));
    await rendered();
    const again = callsTo(fetchMock, NEWEST).length;
    // someone else's incident still warns, once the poll has seen it too
    newest = 20002;
    act(() => streams[0]!.push(created(20002, currentUser.id + 1)));
    await vi.waitFor(() => expect(callsTo(fetchMock, NEWEST).length).toBeGreaterThan(again));
    expect(await screen.findByText('New incident 20002')).toBeInTheDocument();
    expect(screen.queryByText('New incident 20001')).not.toBeInTheDocument();
  });
});
