import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import type { ReportFile, ReportTask } from '@soc/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import { formatDate, formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const REPORTS = 'GET /api/v0/soc/reports/';
const TASKS = 'GET /api/v0/soc/report_tasks/';
const SYSTEMS = 'GET /api/v0/soc/systems/';

const report = (id: number): ReportFile => ({
  id,
  filename: `Report ${id}.pdf`,
  link: `/api/v0/soc/reports/${id}/`,
  created: '2026-11-20T10:00:00.000Z',
  start: '2026-10-31T21:00:00.000Z',
  finish: '2026-11-20T20:59:59.999Z',
  size: 32_000 + id,
  system: 'North',
});
const task: ReportTask = {
  id: 7,
  name: 'Weekly SOC',
  systems: ['North'],
  system_keys: ['IS-0001'],
  emails: ['a@example.com'],
  start_time: '2026-11-30T09:30',
  period: 'everyWeek',
  crontab: { minute: '30', hour: '9', day_of_week: '1', day_of_month: '*', month_of_year: '*' },
  time_zone: 'Europe/Moscow',
  next_run: null,
  last_run: null,
};
const page = <T,>(results: T[]) => ({ body: { total: results.length, next: null, previous: null, results } });

function open(path: string, routes: MockRoutes = {}) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      [REPORTS]: page([report(1), report(2)]),
      [TASKS]: page([task]),
      [SYSTEMS]: page([{ id: 1, is_id: 'IS-0001', full_name: 'North' }]),
      ...routes,
    }),
  );
  const app = renderApp(path);
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...app, user, fetchMock };
}

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

// the page is a lazy chunk with antd's table and pickers: generous waits on a loaded machine
const SLOW = { timeout: 15_000 };

describe('reports page', { timeout: 90_000 }, () => {
  it('opens the reports list from /reports, in batches of 100, with the count badge', async () => {
    const { router, fetchMock } = open('/reports');
    expect(await screen.findByTestId('reports-page', {}, SLOW)).toHaveAttribute('data-tab', 'reportsList');
    expect(router.state.location.pathname).toBe('/reports/reportsList');
    // titled like every other screen, the list not folded away in a panel
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Reports');
    expect(document.querySelector('.ant-collapse')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2), SLOW);
    expect(screen.getByTestId('reports-count')).toHaveAttribute('data-count', '2');
    const query = Object.fromEntries(callsTo(fetchMock, REPORTS)[0]!.url.searchParams);
    expect(query).toEqual({ page: '1', page_size: '100' });
  });

  it('filters the size in the unit the column shows, sending bytes', async () => {
    const { user, fetchMock } = open('/reports/reportsList');
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2), SLOW);
    // 32,001 bytes: the column reads "31.3 kB", so the filter offers kB and MB, not bytes
    expect(screen.getAllByTestId('report-row')[0]).toHaveTextContent('31.3 kB');
    const sizeHeader = screen.getAllByRole('columnheader').find((h) => h.textContent?.includes('Size'))!;
    await user.click(within(sizeHeader).getByRole('button'));
    const unit = await screen.findByTestId('reports-size-unit');
    expect(unit).toHaveTextContent('kB');
    expect(unit).toHaveTextContent('MB');
    expect(screen.queryByPlaceholderText(/bytes/)).not.toBeInTheDocument();
    await user.type(screen.getByTestId('reports-size-from'), '2');
    await user.type(screen.getByTestId('reports-size-to'), '1.5');
    await user.click(within(unit).getByText('MB'));
    await user.click(screen.getByTestId('reports-size-apply'));
    await waitFor(() => {
      const query = Object.fromEntries(callsTo(fetchMock, REPORTS).at(-1)!.url.searchParams);
      expect(query).toMatchObject({
        size__gte: String(2 * 1024 * 1024),
        size__lte: String(1.5 * 1024 * 1024),
      });
    });
  });

  it('scrolls the reports with the page, in one scroll area, loading more at its end', async () => {
    const observers: {
      root: Element | Document | null | undefined;
      callback: IntersectionObserverCallback;
    }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          observers.push({ root: options?.root, callback });
        }
        observe() {}
        disconnect() {}
      },
    );
    const { fetchMock } = open('/reports/reportsList', {
      [REPORTS]: ({ url }) => ({
        body: {
          total: 3,
          next: url.searchParams.get('page') === '1' ? '?page=2' : null,
          previous: null,
          results: url.searchParams.get('page') === '1' ? [report(1), report(2)] : [report(3)],
        },
      }),
    });
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2), SLOW);
    const area = screen.getByTestId('reports-scroll');
    // no inner scroll box: the table keeps its minimum height and the page scrolls
    expect(area.style.overflow).toBe('');
    expect(area.style.height).toBe('');
    expect(parseInt(area.style.minHeight, 10)).toBeGreaterThanOrEqual(600);
    const observer = observers.at(-1)!;
    expect(observer.root ?? null).toBeNull();
    observer.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(3));
    expect(callsTo(fetchMock, REPORTS).map((c) => c.url.searchParams.get('page'))).toContain('2');
  });

  it('redirects an unknown tab to the dashboard', async () => {
    const { router } = open('/reports/nonsense');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), SLOW);
  });

  it('validates the create form in the interface language and orders a one-off report', async () => {
    const { user, fetchMock } = open('/reports/reportsList', {
      'POST /api/v0/soc/reports/create/': {
        status: 201,
        body: { id: 9, detail: 'The report will be generated.' },
      },
      'GET /api/v0/soc/reports/recipient_rules/': { body: { domains: ['partner.example'] } },
    });
    await user.click(await screen.findByTestId('reports-create', {}, SLOW));
    const submit = await screen.findByTestId('report-form-submit');
    expect(submit).toHaveTextContent('Create report');
    // the report goes to its author unless they say otherwise, and the field says who else may
    expect(screen.getByTestId('report-form-emails')).toHaveValue('ivanov@example.com');
    expect(await screen.findByTestId('report-form-recipients-rule')).toHaveTextContent(
      'Users of the chosen systems and addresses in these domains can receive the report: partner.example.',
    );
    await user.click(submit);
    expect(await screen.findByText('Enter the report name')).toBeInTheDocument();
    expect(screen.getByText('Enter the date')).toBeInTheDocument();
    await user.clear(screen.getByTestId('report-form-emails'));
    expect(await screen.findByText('Enter valid e-mail addresses, separated by commas')).toBeInTheDocument();
    // the submit button stays disabled while errors exist
    await waitFor(() => expect(screen.getByTestId('report-form-submit')).toBeDisabled());

    await user.type(screen.getByTestId('report-form-name'), 'November');
    await user.clear(screen.getByTestId('report-form-emails'));
    await user.type(screen.getByTestId('report-form-emails'), 'a@example.com,  b@example.com');
    await user.click(screen.getAllByTestId('report-form-range')[0]!);
    await user.click(await screen.findByText('Last 7 days'));
    await waitFor(() => expect(screen.getByTestId('report-form-submit')).toBeEnabled());
    expect(screen.getByTestId('report-form-info')).toHaveTextContent('A one-off report for');
    await user.click(screen.getByTestId('report-form-submit'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST /api/v0/soc/reports/create/')).toHaveLength(1));
    const body = callsTo(fetchMock, 'POST /api/v0/soc/reports/create/')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'November', systems: [], emails: ['a@example.com', 'b@example.com'] });
    expect(body.start).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(body.finish).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(await screen.findByText('The report will be generated')).toBeInTheDocument();
  });

  it('shows the first __all__ message when ordering fails', async () => {
    const { user } = open('/reports/reportsList', {
      'POST /api/v0/soc/reports/create/': { status: 400, body: { __all__: ['Выберите системы', 'second'] } },
    });
    await user.click(await screen.findByTestId('reports-create', {}, SLOW));
    await user.type(await screen.findByTestId('report-form-name'), 'X');
    await user.clear(screen.getByTestId('report-form-emails'));
    await user.type(screen.getByTestId('report-form-emails'), 'a@example.com');
    await user.click(screen.getAllByTestId('report-form-range')[0]!);
    await user.click(await screen.findByText('Last 30 days'));
    await user.click(screen.getByTestId('report-form-submit'));
    const toast = await screen.findByTestId('notification-error');
    expect(toast).toHaveTextContent('Выберите системы');
    expect(toast).not.toHaveTextContent('second');
  });

  it('shows a refused recipient on the recipients field, naming the address', async () => {
    const refused =
      'leak@evil.example is neither a user of the chosen systems nor in a mail domain an administrator allowed for them.';
    const { user } = open('/reports/reportsList', {
      'POST /api/v0/soc/reports/create/': { status: 400, body: { emails: [refused] } },
    });
    await user.click(await screen.findByTestId('reports-create', {}, SLOW));
    await user.type(await screen.findByTestId('report-form-name'), 'X');
    await user.clear(screen.getByTestId('report-form-emails'));
    await user.type(screen.getByTestId('report-form-emails'), 'leak@evil.example');
    await user.click(screen.getAllByTestId('report-form-range')[0]!);
    await user.click(await screen.findByText('Last 30 days'));
    await user.click(screen.getByTestId('report-form-submit'));
    const field = (await screen.findByTestId('report-form-emails')).closest('.ant-form-item')!;
    await waitFor(() => expect(field).toHaveTextContent(refused));
    // the form stays open on the field; no toast hides the message
    expect(screen.queryByTestId('notification-error')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('report-form-submit')).toBeDisabled());
  });

  it('clears the deleting flag and says so when a delete fails', async () => {
    const { user } = open('/reports/reportsList', {
      'POST /api/v0/soc/reports/delete_multiple/': { status: 500, body: { detail: 'boom' } },
    });
    await waitFor(() => expect(screen.getAllByTestId('report-delete')).toHaveLength(2), SLOW);
    await user.click(screen.getAllByTestId('report-delete')[0]!);
    const confirm = await waitFor(() => {
      const element = document.querySelector<HTMLElement>('.ant-popconfirm');
      if (!element) throw new Error('no confirmation yet');
      return element;
    });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Ошибка при удалении отчета')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('report-delete')[0]).toBeEnabled());
  });

  it('shows schedule cards and keeps the systems when editing only the name', async () => {
    const { user, fetchMock } = open('/reports/reportShedules', {
      'PATCH /api/v0/soc/report_tasks/7/': { body: { ...task, name: 'Renamed' } },
    });
    const card = await screen.findByTestId('schedule-card', {}, SLOW);
    expect(card).toHaveTextContent('Weekly SOC');
    expect(card).toHaveTextContent('Every week');
    expect(card).toHaveTextContent(formatDateTime(new Date(2026, 10, 30, 9, 30).getTime()));
    expect(card).toHaveTextContent('North');
    expect(card).toHaveTextContent('a@example.com');
    expect(within(card).queryByTestId('schedule-edit')).not.toBeInTheDocument();
    await user.click(card);
    await user.click(await within(card).findByTestId('schedule-edit'));
    const name = await screen.findByTestId('report-form-name');
    await user.clear(name);
    await user.type(name, 'Renamed');
    expect(screen.getByTestId('report-form-submit')).toHaveTextContent('Save');
    await user.click(screen.getByTestId('report-form-submit'));
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH /api/v0/soc/report_tasks/7/')).toHaveLength(1));
    expect(callsTo(fetchMock, 'PATCH /api/v0/soc/report_tasks/7/')[0]!.body).toEqual({
      name: 'Renamed',
      systems: ['IS-0001'],
      emails: ['a@example.com'],
      start_time: '2026-11-30T09:30',
      period: 'everyWeek',
      crontab: task.crontab,
    });
  });

  it('creates a schedule from the schedules tab, even when it has none', async () => {
    const { user } = open('/reports/reportShedules', { [TASKS]: page([]) });
    await screen.findByTestId('schedules-empty', {}, SLOW);
    await user.click(screen.getByTestId('schedules-create'));
    const submit = await screen.findByTestId('report-form-submit');
    // a schedule, not a one-off report: the periodicity starts at every week
    expect(submit).toHaveTextContent('Save schedule');
    expect(screen.getByTestId('report-form')).toHaveTextContent('Every week');
    expect(screen.getByTestId('report-form-start')).toBeInTheDocument();
  });

  for (const language of ['en', 'ru']) {
    it(`writes every date of the reports screens in the one ${language} format`, async () => {
      await i18n.changeLanguage(language);
      const { user } = open('/reports/reportsList');
      await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2), SLOW);
      const row = screen.getAllByTestId('report-row')[0]!;
      expect(row).toHaveTextContent(formatDateTime(Date.parse(report(1).created)));
      // the period's calendar days in the report's zone (its bounds are Moscow midnights)
      expect(row).toHaveTextContent(
        language === 'en' ? '1 Nov 2026 — 20 Nov 2026' : '01.11.2026 — 20.11.2026',
      );
      // the one-off form's info line uses the same date format as the table (its pickers keep the
      // day.month.year they are typed in: reports.e2e.ts types a start time)
      await user.click(screen.getByTestId('reports-create'));
      await user.click((await screen.findAllByTestId('report-form-range'))[0]!);
      await user.click(await screen.findByText(language === 'en' ? 'Last 7 days' : 'Последние 7 дней'));
      const today = new Date();
      const todayText = formatDate(
        new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime(),
      );
      expect(screen.getByTestId('report-form-info')).toHaveTextContent(todayText);
      await user.click(screen.getByTestId('report-form-cancel'));
      // and the schedule cards too
      await user.click(screen.getByRole('tab', { name: language === 'en' ? 'Schedules' : 'Расписания' }));
      const card = await screen.findByTestId('schedule-card', {}, SLOW);
      expect(card).toHaveTextContent(formatDateTime(new Date(2026, 10, 30, 9, 30).getTime()));
    });
  }

  it('shows no data for an empty schedule list', async () => {
    open('/reports/reportShedules', { [TASKS]: page([]) });
    expect(await screen.findByTestId('schedules-empty', {}, SLOW)).toHaveTextContent('No data');
  });
});
