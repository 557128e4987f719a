import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFile, ReportListResponse, ReportTask, ReportTaskListResponse } from '@soc/contracts';
import { crontabFromPeriod } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import { createMailer } from '../../integrations/mail/mailer.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import type { JobRow } from '../../jobs/runner.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildUser } from '../../test/builders.ts';
import { runAdminCommand } from '../admin/index.ts';
import { createReportsService } from './reports.service.ts';

const run = promisify(execFile);
let ctx: TestContext;
let smtp: SMTPServer;
let dir: string;
const received: { to: string[]; raw: Buffer }[] = [];
const tokens: Record<string, string> = {};
const systems: Record<string, string> = {};
let customerSystemId: number;
let analystEmail: string;
/** The e-mail addresses of the two built customers, on their tenants' domains. */
const CUSTOMER = 'customer@tenant-a.example';
const OTHER = 'other@tenant-b.example';

/** Reads a PDF back with poppler's pdftotext (a real PDF reader). */
async function pdfText(pdf: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  try {
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-']);
    return stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'pdftotext is missing: install poppler-utils (apt-get install -y poppler-utils; .ci/run does)',
      );
    }
    throw err;
  }
}

/** A call as `user`; `language` is the portal language the web app sends as Accept-Language. */
const api = (
  user: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  language?: 'ru' | 'en',
) =>
  ctx.app.inject({
    method,
    url: `/api/v0/soc/${url}`,
    headers: { ...bearer(tokens[user]!), ...(language ? { 'accept-language': language } : {}) },
    ...(payload ? { payload } : {}),
  });

/** The reports service of the test's app with its own attachment limit. */
const reportsService = (attachmentMaxBytes = 1024 * 1024) =>
  createReportsService({
    db: ctx.database.db,
    config: ctx.config,
    storage: new LocalFileStorage(ctx.config.filesDir),
    mailer: createMailer({ smtpUrl: ctx.config.mail.smtpUrl, from: 'soc@test.local', outboxDir: '' }),
    jobs: ctx.app.jobs,
    attachmentMaxBytes,
  });

const list = async (user: string, query = '') =>
  (await api(user, 'GET', `reports/?${query}`)).json<ReportListResponse>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-report-test-'));
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  ctx = await createTestContext({
    incidents: 0,
    config: {
      mail: {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'soc@test.local',
        outboxDir: '',
        attachmentMaxBytes: 1024 * 1024,
      },
    },
  });
  // customer reads Russian (the default), otherTenant English
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  Object.assign(systems, { customer: own.isId, otherTenant: other.isId });
  customerSystemId = own.id;
  tokens.customer = await (await buildCustomer(ctx, [own.id], { email: CUSTOMER })).login();
  tokens.otherTenant = await (await buildCustomer(ctx, [other.id], { email: OTHER, locale: 'en' })).login();
  const analyst = await buildAnalyst(ctx);
  analystEmail = `${analyst.username}@test.example`;
  tokens.analyst = await analyst.login();
  tokens.admin = await (await buildUser(ctx, { role: 'admin' })).login();

  // a hand-made system with known incidents in January 2026 (Moscow time) and two in December
  const [sys] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`INSERT INTO systems (is_id, full_name) VALUES ('IS-RPT', 'Report test system') RETURNING id`,
  );
  await ctx.database.db.execute(
    sql`INSERT INTO services (system_id, name, start_date, contracted_eps) VALUES (${sys!.id}, 'Vision', '2025-01-01', 100)`,
  );
  // recipients outside the system's users, by domain (issue 25 item 12)
  await ctx.database.db.execute(
    sql`UPDATE systems SET mail_domains = '{tenant-b.example,example.com}' WHERE id = ${sys!.id}`,
  );
  const [issueType] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`SELECT id FROM issue_types ORDER BY id LIMIT 1`,
  );
  const incident = (
    created: string,
    priority: string,
    status: string,
    extra: { breached?: boolean; resolved?: string; iocs?: object[]; techniques?: string[] } = {},
  ) =>
    ctx.database.db.execute(sql`
      INSERT INTO incidents (system_id, issue_type_id, summary, priority, status, created, updated, sla, notified_at, sla_breached, resolution_date, observed_iocs, techniques)
      VALUES (${sys!.id}, ${issueType!.id}, ${`Report incident ${created}`}, ${priority}, ${status}, ${created}::timestamptz, ${created}::timestamptz,
              ${created}::timestamptz + interval '4 hours', ${created}::timestamptz + interval '1 hour', ${extra.breached ?? false},
              ${extra.resolved ?? null}::timestamptz, ${JSON.stringify(extra.iocs ?? [])}::jsonb, string_to_array(${(extra.techniques ?? []).join(',')}, ',')::text[])`);
  await incident('2026-01-05T10:00:00Z', 'critical', 'closed', {
    resolved: '2026-01-05T20:00:00Z',
    iocs: [
      { ioc: 'evil.example.com', ioc_type: 'fqdn', category: [] },
      { ioc: '203.0.113.7', ioc_type: 'ipv4', category: [] },
    ],
    techniques: ['T1059', 'T1566'],
  });
  await incident('2026-01-10T10:00:00Z', 'high', 'closed', {
    resolved: '2026-01-11T00:00:00Z',
    breached: true,
    iocs: [{ ioc: 'evil.example.com', ioc_type: 'fqdn', category: [] }],
    techniques: ['T1059'],
  });
  await incident('2026-01-20T10:00:00Z', 'high', 'work_in_progress');
  await incident('2026-01-31T20:00:00Z', 'low', 'waiting_for_customer');
  // outside the period: 1 Feb 00:30 in Moscow, and two in December for the comparison
  await incident('2026-01-31T21:30:00Z', 'low', 'waiting_for_customer');
  await incident('2025-12-10T10:00:00Z', 'medium', 'closed');
  await incident('2025-12-20T10:00:00Z', 'medium', 'closed');
});

afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('one-off reports', () => {
  let report: ReportFile;

  it('queues a report that appears in the list once built, with the right totals, and mails it', async () => {
    const res = await api(
      'analyst',
      'POST',
      'reports/create/',
      {
        name: 'January',
        systems: ['IS-RPT'],
        emails: [OTHER],
        start: '01.01.2026',
        finish: '31.01.2026',
      },
      'en',
    );
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: number }>();
    expect((await list('analyst', 'filename=January')).total).toBe(0);

    await ctx.app.jobs.runDue();
    const after = await list('analyst', 'filename=January');
    expect(after.total).toBe(1);
    report = after.results[0]!;
    expect(report).toMatchObject({
      id,
      system: 'Report test system',
      link: `/api/v0/soc/reports/${id}/`,
      // the period's bounds are midnights of this zone: the list shows its calendar dates in it
      time_zone: 'Europe/Moscow',
      start: '2025-12-31T21:00:00.000Z',
    });
    expect(report.filename).toBe('January_2026-01-01_2026-01-31.pdf');
    // Moscow midnight to midnight
    expect(report.start).toBe('2025-12-31T21:00:00.000Z');
    expect(report.finish).toBe('2026-01-31T20:59:59.999Z');

    const file = await api('analyst', 'GET', `reports/${id}/download/`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(Number(file.headers['content-length'])).toBe(report.size);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // the analyst ordered it in English: the report is in English
    const text = await pdfText(file.rawPayload);
    expect(text).toMatch(/Incidents in the period\s+4\b/);
    expect(text).toMatch(/In the previous period\s+2\b/);
    expect(text).toMatch(/Change\s+\+2 \(\+100(\.0)?%\)/);
    expect(text).toMatch(/Critical\s+1\b/);
    expect(text).toMatch(/High\s+2\b/);
    expect(text).toMatch(/Breached\s+1\b/);
    expect(text).toMatch(/Met\s+3\b/);
    expect(text).toMatch(/Compliance\s+75(\.0)?%/);
    // closed after 10 h and 14 h
    expect(text).toMatch(/Mean time to close\s+12(\.0)? h/);
    expect(text).toMatch(/evil\.example\.com\s+2\b/);
    expect(text).toMatch(/203\.0\.113\.7\s+1\b/);
    expect(text).toMatch(/T1059\s+2\b/);
    expect(text).toMatch(/Contracted\s+100\b/);
    expect(text).toContain('Report incident 2026-01-31T20:00:00Z');
    expect(text).not.toContain('Report incident 2026-01-31T21:30:00Z');

    const mail = received.find((m) => m.to.includes(OTHER));
    expect(mail).toBeDefined();
    const parsed = await PostalMime.parse(mail!.raw);
    expect(parsed.subject).toBe('Report: January');
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]!.filename).toBe(report.filename);
    expect(parsed.attachments[0]!.mimeType).toBe('application/pdf');
    expect(Buffer.from(parsed.attachments[0]!.content as ArrayBuffer).equals(file.rawPayload)).toBe(true);

    // retried jobs neither rebuild nor mail again
    const mails = received.length;
    await ctx.app.jobs.runDue();
    expect(received.length).toBe(mails);
  });

  it('mails a link instead of the file when the report is larger than the attachment limit', async () => {
    const res = await api('analyst', 'POST', 'reports/create/', {
      name: 'Large',
      systems: ['IS-RPT'],
      emails: ['big@example.com'],
      start: '01.01.2026',
      finish: '31.01.2026',
    });
    const { id } = res.json<{ id: number }>();
    const small = reportsService(1000);
    const job = { attempts: 1, maxAttempts: 5 } as JobRow;
    expect(await small.runBuild({ reportId: id }, job)).toMatchObject({ reportId: id, mailed: true });
    const mail = received.find((m) => m.to.includes('big@example.com'));
    const parsed = await PostalMime.parse(mail!.raw);
    expect(parsed.attachments).toHaveLength(0);
    // ordered without a language: Russian, the portal's default
    expect(parsed.subject).toBe('Отчёт: Large');
    expect(parsed.text).toContain('/reports/reportsList');
    expect(parsed.text).toContain('слишком велик');
  });

  it("writes the report in the language the requester reads the portal in, not the recipient's", async () => {
    const order = async (user: string, language: 'ru' | 'en', emails: string[]) => {
      const before = received.length;
      const res = await api(
        user,
        'POST',
        'reports/create/',
        { name: `Language ${language}`, emails, start: '01.11.2026', finish: '02.11.2026' },
        language,
      );
      expect(res.statusCode, res.body).toBe(201);
      await ctx.app.jobs.runDue();
      const file = await api(user, 'GET', `reports/${res.json<{ id: number }>().id}/download/`);
      const mail = await PostalMime.parse(received.slice(before).find((m) => m.to.includes(emails[0]!))!.raw);
      return { text: await pdfText(file.rawPayload), subject: mail.subject };
    };
    // otherTenant's account and recipient read English, but this request came in Russian
    const ru = await order('otherTenant', 'ru', [OTHER]);
    expect(ru.text).toMatch(/Инцидентов за период\s+0\b/);
    expect(ru.text).toContain('Период: 1 нояб. 2026');
    expect(ru.text).not.toContain('Incidents in the period');
    expect(ru.subject).toBe('Отчёт: Language ru');
    // the customer's account and recipient read Russian, this request came in English
    const en = await order('customer', 'en', [CUSTOMER]);
    expect(en.text).toMatch(/Incidents in the period\s+0\b/);
    expect(en.text).toContain('Period: 1 Nov 2026');
    expect(en.text).not.toContain('Инцидентов за период');
    expect(en.subject).toBe('Report: Language en');
  });

  it('filters and orders the list', async () => {
    expect(
      (await list('analyst', 'system__in=IS-RPT&ordering=created')).results.map((r) => r.filename),
    ).toEqual([report.filename, 'Large_2026-01-01_2026-01-31.pdf']);
    expect((await list('analyst', `size__gte=${report.size + 1}&filename=January`)).total).toBe(0);
    expect(
      (
        await list(
          'analyst',
          'start__gte=2025-12-31T00:00:00Z&finish__lte=2026-02-01T00:00:00Z&filename=January',
        )
      ).results.map((r) => r.id),
    ).toEqual([report.id]);
    const bySize = (await list('analyst', 'ordering=size')).results.map((r) => r.size);
    expect(bySize).toEqual([...bySize].sort((a, b) => a - b));
    expect((await api('analyst', 'GET', 'reports/?bogus=1')).statusCode).toBe(400);
  });

  it('refuses a reversed period with the message under __all__, and unknown e-mails or systems', async () => {
    const bad = await api('customer', 'POST', 'reports/create/', {
      name: 'x',
      systems: [],
      emails: [],
      start: '10.01.2026',
      finish: '01.01.2026',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ __all__: ['Некорректная дата'] });
    // the specified Russian texts have their English beside them
    const badEn = await api(
      'customer',
      'POST',
      'reports/create/',
      { name: 'x', emails: ['nope'], start: '1.1.2026', finish: '10.01.2026' },
      'en',
    );
    expect(badEn.json()).toEqual({ emails: ['Invalid e-mail address'], start: ['Invalid date'] });
    const email = await api('customer', 'POST', 'reports/create/', {
      name: 'x',
      emails: ['nope'],
      start: '01.01.2026',
      finish: '02.01.2026',
    });
    expect(email.statusCode).toBe(400);
    expect(JSON.stringify(email.json())).toContain('Некорректный email');
    const foreign = await api('customer', 'POST', 'reports/create/', {
      name: 'x',
      systems: [systems.otherTenant],
      start: '01.01.2026',
      finish: '02.01.2026',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ __all__: ['Выберите системы'] });
  });

  it('refuses a period that ends after today in the report zone, and one longer than allowed', async () => {
    // the days of the report zone (Moscow), as `DD.MM.YYYY`, `offset` days from today
    const moscowDay = (offset: number) => {
      const [d, m, y] = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow' })
        .format(Date.now() + offset * 86_400_000)
        .split('.');
      return `${d}.${m}.${y}`;
    };
    const order = (finish: string, lang: 'en' | 'ru') =>
      api('customer', 'POST', 'reports/create/', { name: 'x', start: moscowDay(-3), finish }, lang);
    const future = await order(moscowDay(1), 'en');
    expect(future.statusCode).toBe(400);
    expect(future.json()).toEqual({
      __all__: ['The period cannot end after today: a report covers days that have passed.'],
    });
    expect((await order(moscowDay(1), 'ru')).json()).toEqual({
      __all__: ['Период не может заканчиваться позже сегодняшнего дня: отчёт строится за прошедшие дни.'],
    });
    expect((await order(moscowDay(0), 'en')).statusCode).toBe(201);
    const long = await api(
      'customer',
      'POST',
      'reports/create/',
      { name: 'x', start: '01.01.2024', finish: '01.01.2026' },
      'ru',
    );
    expect(long.statusCode).toBe(400);
    expect(long.json<{ __all__: string[] }>().__all__[0]).toMatch(
      /^Период может быть не длиннее \d+ дней\.$/,
    );
  });

  it("keeps tenants apart: another tenant's report is a 404 to read, download and delete", async () => {
    const res = await api('customer', 'POST', 'reports/create/', {
      name: 'Own only',
      systems: [],
      start: '01.11.2026',
      finish: '20.11.2026',
    });
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: number }>();
    await ctx.app.jobs.runDue();
    expect((await list('customer', 'filename=Own')).results.map((r) => r.id)).toEqual([id]);
    expect((await list('otherTenant', 'filename=Own')).total).toBe(0);
    // the analyst's report of the hand-made system is not the customer's either
    expect((await api('customer', 'GET', `reports/${report.id}/`)).statusCode).toBe(404);
    expect((await api('otherTenant', 'GET', `reports/${id}/`)).statusCode).toBe(404);
    expect((await api('otherTenant', 'GET', `reports/${id}/download/`)).statusCode).toBe(404);
    expect((await api('otherTenant', 'DELETE', `reports/${id}/`)).statusCode).toBe(404);
    expect((await api('otherTenant', 'POST', 'reports/delete_multiple/', { ids: [id] })).statusCode).toBe(
      404,
    );
    expect((await list('customer', 'filename=Own')).total).toBe(1);

    const del = await api('customer', 'POST', 'reports/delete_multiple/', { ids: [id] });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: 1 });
    expect((await list('customer', 'filename=Own')).total).toBe(0);
    expect((await api('customer', 'GET', `reports/${id}/download/`)).statusCode).toBe(404);
  });
});

describe('report tasks (schedules)', () => {
  let task: ReportTask;

  it('creates a schedule whose crontab matches its period, lists and edits it', async () => {
    const body = {
      name: 'Weekly',
      systems: [systems.customer],
      emails: [CUSTOMER],
      start_time: '2026-11-23T09:00',
      period: 'everyWeek',
      crontab: crontabFromPeriod('everyWeek', '2026-11-23T09:00'),
    };
    const wrong = await api('customer', 'POST', 'report_tasks/', {
      ...body,
      crontab: { ...body.crontab, hour: '10' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toHaveProperty('crontab');
    const res = await api('customer', 'POST', 'report_tasks/', body);
    expect(res.statusCode).toBe(201);
    task = res.json<ReportTask>();
    expect(task).toMatchObject({
      name: 'Weekly',
      period: 'everyWeek',
      system_keys: [systems.customer],
      time_zone: 'Europe/Moscow',
    });
    expect(task.crontab).toEqual({
      minute: '0',
      hour: '9',
      day_of_week: '1',
      day_of_month: '*',
      month_of_year: '*',
    });
    expect(new Date(task.next_run!).getUTCHours()).toBe(6);

    const listed = (await api('customer', 'GET', 'report_tasks/')).json<ReportTaskListResponse>();
    expect(listed.results.map((t) => t.id)).toContain(task.id);
    expect(
      (await api('otherTenant', 'GET', 'report_tasks/'))
        .json<ReportTaskListResponse>()
        .results.map((t) => t.id),
    ).not.toContain(task.id);

    // an address outside the customer's system is refused until an administrator allows its domain
    const outside = await api('customer', 'PATCH', `report_tasks/${task.id}/`, {
      emails: [CUSTOMER, 'soc@tenant-a.example'],
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json<{ emails: string[] }>().emails[0]).toContain('soc@tenant-a.example');
    const allowed = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v0/admin/systems/${customerSystemId}/mail_domains/`,
      headers: bearer(tokens.admin!),
      payload: { mail_domains: ['Tenant-A.example'] },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json()).toEqual({ mail_domains: ['tenant-a.example'] });

    // systems are kept when none are sent; the period change brings its crontab
    const patched = await api('customer', 'PATCH', `report_tasks/${task.id}/`, {
      emails: [CUSTOMER, 'soc@tenant-a.example'],
      start_time: '2026-11-30T08:30',
      period: 'onceAMonth',
      crontab: crontabFromPeriod('onceAMonth', '2026-11-30T08:30'),
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<ReportTask>()).toMatchObject({
      name: 'Weekly',
      period: 'onceAMonth',
      system_keys: [systems.customer],
      crontab: { day_of_month: 'L', hour: '8', minute: '30' },
    });
    const renamed = await api('customer', 'PATCH', `report_tasks/${task.id}/`, { name: 'Monthly' }, 'en');
    expect(renamed.json<ReportTask>().name).toBe('Monthly');
    // the owner's edit brings the language they now read the portal in; another person's keeps it
    const language = async () =>
      (
        await queryRows<{ language: string }>(
          ctx.database.db,
          sql`SELECT language FROM report_schedules WHERE id = ${task.id}`,
        )
      )[0]!.language;
    expect(await language()).toBe('en');
    await api('analyst', 'PATCH', `report_tasks/${task.id}/`, { name: 'Monthly' }, 'ru');
    expect(await language()).toBe('en');
    const emptied = await api('customer', 'PATCH', `report_tasks/${task.id}/`, { systems: [] });
    expect(emptied.statusCode).toBe(400);
    expect(JSON.stringify(emptied.json())).toContain('Empty error');
  });

  it("refuses another tenant's schedule with a 404 and deletes one's own", async () => {
    expect((await api('otherTenant', 'PATCH', `report_tasks/${task.id}/`, { name: 'x' })).statusCode).toBe(
      404,
    );
    expect((await api('otherTenant', 'DELETE', `report_tasks/${task.id}/`)).statusCode).toBe(404);
    expect((await api('customer', 'DELETE', `report_tasks/${task.id}/`)).statusCode).toBe(204);
    expect((await api('customer', 'DELETE', `report_tasks/${task.id}/`)).statusCode).toBe(404);
  });

  it("covers the previous calendar month of the schedule's zone, in its author's language", async () => {
    const service = reportsService();
    /** A monthly schedule at 00:30 on the 1st, made in `language`, moved to Vladivostok (UTC+10). */
    const schedule = async (user: string, language: 'ru' | 'en', email: string) => {
      const start = '2026-01-01T00:30';
      const res = await api(
        user,
        'POST',
        'report_tasks/',
        {
          name: `Monthly ${language}`,
          systems: [],
          emails: [email],
          start_time: start,
          period: 'onceAMonth',
          crontab: crontabFromPeriod('onceAMonth', start),
        },
        language,
      );
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<ReportTask>();
      // 00:30 on 1 March in Vladivostok, still 28 February in UTC and in Moscow
      await ctx.database.db.execute(
        sql`UPDATE report_schedules SET time_zone = 'Asia/Vladivostok', next_run_at = '2026-02-28T14:30:00Z' WHERE id = ${id}`,
      );
      return id;
    };
    // each account and recipient reads the other language than the one the schedule was made in
    const en = await schedule('customer', 'en', CUSTOMER);
    const ru = await schedule('otherTenant', 'ru', OTHER);
    expect(await service.tick(new Date('2026-02-28T14:31:00Z'))).toBe(2);
    await ctx.app.jobs.runDue();

    const made = async (scheduleId: number, user: string) => {
      const [row] = await queryRows<{
        id: number;
        filename: string;
        period_start: Date;
        period_finish: Date;
      }>(
        ctx.database.db,
        sql`SELECT id, filename, period_start, period_finish FROM reports WHERE schedule_id = ${scheduleId}`,
      );
      const file = await api(user, 'GET', `reports/${row!.id}/download/`);
      expect(file.statusCode).toBe(200);
      return { ...row!, text: await pdfText(file.rawPayload) };
    };
    const english = await made(en, 'customer');
    expect(english.filename).toBe('Monthly en_2026-02-01_2026-02-28.pdf');
    expect(new Date(english.period_start).toISOString()).toBe('2026-01-31T14:00:00.000Z');
    expect(new Date(english.period_finish).toISOString()).toBe('2026-02-28T13:59:59.999Z');
    expect(english.text).toContain('Period: 1 Feb 2026, 00:00 — 28 Feb 2026, 23:59');
    expect(english.text).toContain('Time zone: Asia/Vladivostok');
    expect(english.text).toMatch(/Incidents in the period\s+0\b/);
    const russian = await made(ru, 'otherTenant');
    expect(russian.filename).toBe('Monthly ru_2026-02-01_2026-02-28.pdf');
    expect(russian.text).toMatch(/Период: 1 февр\. 2026 г\., 00:00 — 28 февр\. 2026 г\., 23:59/);
    expect(russian.text).toMatch(/Инцидентов за период\s+0\b/);
  });

  it('runs a schedule that missed several slots once, for the latest period', async () => {
    const res = await api('otherTenant', 'POST', 'report_tasks/', {
      name: 'Daily catch-up',
      systems: [],
      emails: [OTHER],
      start_time: '2026-01-01T09:00',
      period: 'everyDay',
      crontab: crontabFromPeriod('everyDay', '2026-01-01T09:00'),
    });
    const id = res.json<ReportTask>().id;
    // as if the server had been down for ten days
    await ctx.database.db.execute(
      sql`UPDATE report_schedules SET next_run_at = now() - interval '10 days' WHERE id = ${id}`,
    );
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();
    const made = await queryRows<{ status: string; period_finish: Date | string }>(
      ctx.database.db,
      sql`SELECT status, period_finish FROM reports WHERE schedule_id = ${id}`,
    );
    expect(made).toHaveLength(1);
    expect(made[0]!.status).toBe('ready');
    // the latest 09:00 (Moscow) slot lies less than a day ago; its period, the day before it,
    // ended at the midnight 9 hours before the slot
    const sinceFinish = Date.now() - new Date(made[0]!.period_finish).getTime();
    expect(sinceFinish).toBeGreaterThanOrEqual(9 * 3_600_000);
    expect(sinceFinish).toBeLessThan(33 * 3_600_000);
    const [row] = await queryRows<{ next_run_at: Date | string }>(
      ctx.database.db,
      sql`SELECT next_run_at FROM report_schedules WHERE id = ${id}`,
    );
    expect(new Date(row!.next_run_at).getTime()).toBeGreaterThan(Date.now());
    const listed = await list('otherTenant', 'filename=Daily');
    expect(listed.total).toBe(1);
  });
});

describe('report recipients (issue 25 item 12)', () => {
  /** A one-off report of `systems` (default: all of the caller's) for `emails`. */
  const order = (
    user: string,
    emails: string[],
    opts: { language?: 'en'; systems?: string[]; name?: string } = {},
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/reports/create/',
      headers: { ...bearer(tokens[user]!), ...(opts.language ? { 'accept-language': opts.language } : {}) },
      payload: {
        name: opts.name ?? 'Recipients',
        systems: opts.systems ?? [],
        emails,
        start: '01.11.2026',
        finish: '02.11.2026',
      },
    });

  it('refuses an address that is no user of the report’s systems nor of an allowed domain, naming it', async () => {
    const ru = await order('otherTenant', [OTHER, 'leak@evil.example']);
    expect(ru.statusCode).toBe(400);
    expect(ru.json()).toEqual({
      emails: [
        'Адрес leak@evil.example не принадлежит пользователю выбранных систем и не входит в домены, разрешённые для них администратором.',
      ],
    });
    const en = await order('otherTenant', ['Leak@Evil.example'], { language: 'en' });
    expect(en.json<{ emails: string[] }>().emails).toEqual([
      'Leak@Evil.example is neither a user of the chosen systems nor in a mail domain an administrator allowed for them.',
    ]);
    // another tenant's user is not a user of otherTenant's system
    expect((await order('otherTenant', [CUSTOMER])).statusCode).toBe(400);
    // the system's own user, and the provider's staff, may receive it
    expect((await order('otherTenant', [OTHER.toUpperCase()])).statusCode).toBe(201);
    expect((await order('otherTenant', [analystEmail])).statusCode).toBe(201);
  });

  it('lets an administrator allow domains per system; the CLI and the API agree; customers cannot', async () => {
    const url = `/api/v0/admin/systems/${customerSystemId}/mail_domains/`;
    const as = (user: string, method: 'GET' | 'PUT', payload?: object) =>
      ctx.app.inject({ method, url, headers: bearer(tokens[user]!), ...(payload ? { payload } : {}) });
    expect((await as('customer', 'GET')).statusCode).toBe(403);
    expect((await as('customer', 'PUT', { mail_domains: ['evil.example'] })).statusCode).toBe(403);
    const bad = await as('admin', 'PUT', { mail_domains: ['*.evil.example'] });
    expect(bad.statusCode).toBe(400);
    const out = await runAdminCommand(
      ['systems', 'mail-domains', systems.customer!, '--set', 'partner.example, b.example'],
      { db: ctx.database.db, config: ctx.config },
    );
    expect(JSON.parse(out)).toEqual({ mail_domains: ['b.example', 'partner.example'] });
    expect((await as('admin', 'GET')).json()).toEqual({ mail_domains: ['b.example', 'partner.example'] });
    const audited = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'system.mail_domains' AND object_id = ${String(customerSystemId)}`,
    );
    expect(audited[0]!.n).toBeGreaterThanOrEqual(2);
    const res = await order('customer', ['soc@partner.example'], { name: 'Partner' });
    expect(res.statusCode, res.body).toBe(201);

    // the forms ask before sending who may receive the report (issue 40 flaw 13)
    const rules = (user: string, query = '') =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/v0/soc/reports/recipient_rules/${query}`,
        headers: bearer(tokens[user]!),
      });
    expect((await rules('customer', `?systems=${systems.customer!}`)).json()).toEqual({
      domains: ['b.example', 'partner.example'],
    });
    // none chosen: all of the caller's systems
    expect((await rules('customer')).json()).toEqual({ domains: ['b.example', 'partner.example'] });
    // another tenant's system is not the caller's to ask about
    const foreign = await rules('customer', `?systems=${systems.otherTenant!}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ systems: ['Выберите системы'] });
    // a system without allowed domains: only its users
    expect((await rules('otherTenant')).json()).toEqual({ domains: [] });
  });

  it('skips, when mailing, an address that lost its right after the report was ordered, and audits every mail', async () => {
    const res = await order('customer', [CUSTOMER, 'gone@partner.example'], {
      name: 'Revoked',
    });
    expect(res.statusCode, res.body).toBe(201);
    await runAdminCommand(['systems', 'mail-domains', systems.customer!, '--set', ''], {
      db: ctx.database.db,
      config: ctx.config,
    });
    const before = received.length;
    await ctx.app.jobs.runDue();
    const sent = received.slice(before).flatMap((m) => m.to);
    expect(sent).toContain(CUSTOMER);
    expect(sent).not.toContain('gone@partner.example');
    const entries = await queryRows<{ details: { to: string[]; kind: string } }>(
      ctx.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'mail.sent' ORDER BY id`,
    );
    const reportMails = entries.filter((e) => e.details.kind === 'report').flatMap((e) => e.details.to);
    expect(reportMails).toContain(CUSTOMER);
    expect(reportMails).not.toContain('gone@partner.example');
    // recipients and kind only: no subject or text in the audit log
    expect(JSON.stringify(entries)).not.toContain('Revoked');
  });
});
