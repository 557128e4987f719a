import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo } from '../../../test/fetchMock.ts';
import { openIncidents, renderedKeys, stubListLayout } from '../test/pageHarness.ts';

const SYNC = 'GET /api/v0/soc/incs/get_csv/';
const ASYNC = 'GET /api/v0/soc/incs/get_async_csv/';

let saved: Array<{ href: string; download: string }>;

beforeEach(() => {
  stubListLayout();
  saved = [];
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: vi.fn(() => 'blob:incidents') });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
});
afterEach(() => vi.restoreAllMocks());

const PATH = '/incidents?status__in=closed&ordering=priority&search=vpn';

async function openAndExport(routes: Parameters<typeof openIncidents>[1]) {
  const app = openIncidents(PATH, routes);
  await waitFor(() => expect(renderedKeys().length).toBeGreaterThan(0));
  await app.user.click(screen.getByTestId('incidents-csv-button'));
  return app;
}

describe('CSV export', () => {
  it('downloads the file for the current filters, sort and search under the server’s name', async () => {
    const { fetchMock } = await openAndExport({
      [SYNC]: {
        body: 'key,summary',
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename=incidents-20260115-0930.csv',
        },
      },
    });
    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:incidents', download: 'incidents-20260115-0930.csv' }]),
    );
    const [call] = callsTo(fetchMock, SYNC);
    expect(Object.fromEntries(call!.url.searchParams)).toEqual({
      status__in: 'closed',
      ordering: 'priority',
      search: 'vpn',
      language: 'en',
    });
    expect(call!.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(callsTo(fetchMock, ASYNC)).toHaveLength(0);
  });

  it('asks for the file by e-mail when the list is too long, and says where it goes', async () => {
    const { fetchMock } = await openAndExport({
      [SYNC]: {
        status: 400,
        body: { detail: 'Too many rows', code: 'max_records_exceeded', max_records: 10000, total: 25000 },
      },
      [ASYNC]: { status: 202, body: { detail: 'Queued', email: 'ivanov@example.com' } },
    });
    const toast = await screen.findByTestId('notification-success');
    expect(toast).toHaveTextContent('The CSV file will be sent by e-mail');
    expect(toast).toHaveTextContent('ivanov@example.com');
    expect(Object.fromEntries(callsTo(fetchMock, ASYNC)[0]!.url.searchParams)).toMatchObject({
      status__in: 'closed',
      ordering: 'priority',
      search: 'vpn',
    });
    expect(saved).toEqual([]);
    expect(screen.queryByTestId('notification-error')).not.toBeInTheDocument();
  });

  it('reports other failures without switching to e-mail', async () => {
    const { fetchMock } = await openAndExport({ [SYNC]: { status: 400, body: { detail: 'Bad filter' } } });
    const toast = await screen.findByTestId('notification-error');
    expect(toast).toHaveTextContent('Could not download the CSV file');
    expect(toast).toHaveTextContent('Bad filter');
    expect(callsTo(fetchMock, ASYNC)).toHaveLength(0);
  });
});
