import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PRIVATE_DIR_MODE } from '../../integrations/storage/private-files.ts';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import type {
  Language,
  ReportCreate,
  ReportListQuery,
  ReportTaskCreate,
  ReportTaskUpdate,
  SchedulePeriod,
} from '@soc/contracts';
import {
  DEFAULT_REPORT_TIME_ZONE,
  REPORT_MAX_DAYS,
  REPORT_MESSAGES,
  crontabFromPeriod,
  parseDmy,
} from '@soc/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { jobs, userSystems, users } from '../../db/schema/index.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import type { JobRow, JobRunner } from '../../jobs/runner.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { systemScope } from '../../plugins/auth.ts';
import { buildReportFile } from './report-builder.ts';
import { checkRecipients, refusedRecipients } from './report-recipients.ts';
import { dayRange, isValidCrontab, latestDueSlot, nextSlot, scheduledPeriod } from './report-time.ts';
import type { ReportRow, ScheduleRow } from './reports.repository.ts';
import { createReportsRepository } from './reports.repository.ts';
import { presentReport, presentSchedule } from './reports.presenter.ts';

export const REPORT_BUILD_JOB = 'reports.build';
/** What a report shows while its e-mail waits for a retry. */
export const REPORT_MAIL_RETRY_MESSAGE =
  'The e-mail could not be delivered yet; it is retried automatically.';
/** Schedules handled per scheduler transaction. */
const TICK_BATCH = 20;

export interface ReportsDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  mailer: Mailer;
  jobs: Pick<JobRunner, 'enqueue'>;
  /** Largest report sent as an attachment; larger ones are mailed as a link. */
  attachmentMaxBytes: number;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const UNSAFE_IN_FILENAME = /[\u0000-\u001f\u007f\\/:*?"<>|]+/g;
const fileSafe = (name: string) => name.replace(UNSAFE_IN_FILENAME, '_').trim().slice(0, 120) || 'report';

const ymd = (d: Date, zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(d);

/** Reports and report tasks (issue 11): tenant scope, one-off requests, schedules, building, mail. */
export function createReportsService({
  db,
  config,
  storage,
  mailer,
  jobs: runner,
  attachmentMaxBytes,
}: ReportsDeps) {
  const repo = createReportsRepository(db);

  /** The systems named in a request (codes or names), within the caller's scope; empty: all of theirs. */
  async function resolveSystems(keys: string[], scope: number[] | null, field = 'systems') {
    const unique = [...new Set(keys.map((k) => k.trim()).filter(Boolean))];
    if (!unique.length) {
      const ids = await repo.allSystemIds(scope);
      if (!ids.length) throw badRequest({ [field]: [REPORT_MESSAGES.chooseSystems] });
      return repo.systemsByIds(ids);
    }
    const found = await repo.systemsByKeys(unique, scope);
    const known = new Set(found.flatMap((s) => [s.isId.toLowerCase(), s.fullName.toLowerCase()]));
    if (unique.some((k) => !known.has(k.toLowerCase())))
      throw badRequest({ [field]: [REPORT_MESSAGES.chooseSystems] });
    return found.sort((a, b) => a.isId.localeCompare(b.isId));
  }

  async function reportLanguage(emails: string[], userId: number): Promise<Language> {
    return (await repo.localeOfEmails(emails)) ?? repo.userLocale(userId);
  }

  /** The systems a schedule's owner may still report on (rights are re-read at every run). */
  async function ownerScope(ownerId: number | null, tx: Db): Promise<number[] | null | 'none'> {
    if (ownerId === null) return 'none';
    const [owner] = await tx.select().from(users).where(eq(users.id, ownerId));
    if (!owner?.isActive) return 'none';
    if (owner.role !== 'customer') return null;
    const rows = await tx
      .select({ id: userSystems.systemId })
      .from(userSystems)
      .where(eq(userSystems.userId, ownerId));
    return rows.map((r) => r.id);
  }

  function checkCrontab(
    period: SchedulePeriod,
    startTime: string,
    crontab: ReportTaskCreate['crontab'],
    zone: string,
  ) {
    const expected = crontabFromPeriod(period, startTime);
    const same = (Object.keys(expected) as (keyof typeof expected)[]).every(
      (k) => expected[k] === crontab[k].trim(),
    );
    if (!same || !isValidCrontab(expected, zone)) {
      throw badRequest({ crontab: ['The crontab does not match the period and the start time.'] });
    }
    return expected;
  }

  async function presentSchedules(rows: ScheduleRow[]) {
    const ids = [...new Set(rows.flatMap((r) => r.systemIds))];
    const byId = new Map((await repo.systemsByIds(ids)).map((s) => [s.id, s]));
    return rows.map((r) => presentSchedule(r, byId));
  }

  async function mailReport(row: ReportRow): Promise<boolean> {
    if (!row.emails.length || !row.storageKey) return false;
    // checked again when sending: a schedule runs long after its addresses were typed, and the
    // people of a system or its allowed domains may have changed since
    const refused = await refusedRecipients(db, row.systemIds, row.emails);
    if (refused.length === row.emails.length) return false;
    const ru = row.language === 'ru';
    const period = `${ymd(row.periodStart, row.timeZone)} — ${ymd(row.periodFinish, row.timeZone)}`;
    const origin = (
      config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`
    ).replace(/\/$/, '');
    const page = `${origin}/reports/reportsList`;
    const fits = row.size <= attachmentMaxBytes;
    const subject = ru ? `Отчёт: ${row.name}` : `Report: ${row.name}`;
    const text = fits
      ? ru
        ? `Во вложении — отчёт «${row.name}» за период ${period}.\nОтчёты также доступны на портале: ${page}`
        : `Attached is the report "${row.name}" for ${period}.\nReports are also on the portal: ${page}`
      : ru
        ? `Отчёт «${row.name}» за период ${period} слишком велик для письма (${row.size} байт). Скачайте его на портале: ${page}`
        : `The report "${row.name}" for ${period} is too large for e-mail (${row.size} bytes). Download it from the portal: ${page}`;
    const dir = path.join(tmpdir(), `soc-report-${randomUUID()}`);
    // the report's files are a customer's data: not readable by other accounts of the host
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      const attachments = [];
      if (fits) {
        const file = path.join(dir, 'report.pdf');
        await pipeline(storage.open(row.storageKey), createWriteStream(file));
        attachments.push({ filename: row.filename, path: file, contentType: 'application/pdf' });
      }
      // one message per recipient, so that addresses are not disclosed to each other
      for (const to of row.emails) {
        if (refused.includes(to)) continue;
        await mailer.send({ to, subject, text, attachments, kind: 'report' });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return true;
  }

  async function build(row: ReportRow): Promise<ReportRow> {
    const stored = await buildReportFile(db, storage, row, config.branding.portalName);
    const still = await repo.findReport(row.id, null);
    if (!still) {
      // deleted while it was being built
      await storage.remove(stored.key);
      return row;
    }
    await repo.updateReport(row.id, {
      status: 'ready',
      storageKey: stored.key,
      size: stored.size,
      error: null,
    });
    return { ...row, status: 'ready', storageKey: stored.key, size: stored.size };
  }

  return {
    async list(q: ReportListQuery, auth: AuthContext) {
      const scope = systemScope(auth);
      let systemFilter: number[] | null = null;
      if (q.system__in) {
        systemFilter = (await repo.systemsByKeys(q.system__in, scope)).map((s) => s.id);
        if (!systemFilter.length) return { total: 0, results: [] };
      }
      const { rows, total } = await repo.listReady(q, scope, systemFilter);
      return { total, results: rows.map(presentReport) };
    },

    async one(id: number, auth: AuthContext) {
      const row = await repo.findReport(id, systemScope(auth), 'ready');
      if (!row) throw notFound();
      return row;
    },

    async download(id: number, auth: AuthContext) {
      const row = await repo.findReport(id, systemScope(auth), 'ready');
      if (!row?.storageKey) throw notFound();
      return { row, stream: storage.open(row.storageKey) };
    },

    /** Deletes reports the caller sees; any id they cannot see makes the whole call a 404. */
    async remove(ids: number[], auth: AuthContext, ip: string): Promise<number> {
      const unique = [...new Set(ids)];
      const rows = await repo.visibleReportIds(unique, systemScope(auth));
      if (rows.length !== unique.length) throw notFound();
      await repo.deleteReports(unique);
      for (const row of rows) if (row.storageKey) await storage.remove(row.storageKey);
      await audit(db, {
        userId: auth.userId,
        action: 'report.delete',
        objectType: 'report',
        objectId: unique.join(','),
        ip,
      });
      return rows.length;
    },

    async createOneOff(body: ReportCreate, auth: AuthContext, ip: string, lang: Language = 'ru') {
      const scope = systemScope(auth);
      const start = parseDmy(body.start)!;
      const finish = parseDmy(body.finish)!;
      const zone = DEFAULT_REPORT_TIME_ZONE;
      const range = dayRange(start, finish, zone);
      if (range.finish < range.start) throw badRequest({ __all__: [REPORT_MESSAGES.invalidDate] });
      if (range.finish.getTime() - range.start.getTime() > REPORT_MAX_DAYS * 86_400_000) {
        throw badRequest({ __all__: [`The period may be at most ${REPORT_MAX_DAYS} days.`] });
      }
      const chosen = await resolveSystems(body.systems, scope).catch(() => {
        throw badRequest({ __all__: [REPORT_MESSAGES.chooseSystems] });
      });
      const emails = [...new Set(body.emails)];
      await checkRecipients(
        db,
        chosen.map((s) => s.id),
        emails,
        lang,
      );
      const language = await reportLanguage(emails, auth.userId);
      const row = await repo.insertReport({
        name: body.name,
        filename: `${fileSafe(body.name)}_${ymd(range.start, zone)}_${ymd(range.finish, zone)}.pdf`,
        createdById: auth.userId,
        systemIds: chosen.map((s) => s.id),
        systemLabel: chosen.map((s) => s.fullName).join(', '),
        emails,
        language,
        timeZone: zone,
        periodStart: range.start,
        periodFinish: range.finish,
      });
      await runner.enqueue(REPORT_BUILD_JOB, { reportId: row!.id });
      await audit(db, {
        userId: auth.userId,
        action: 'report.create',
        objectType: 'report',
        objectId: row!.id,
        ip,
      });
      return { id: row!.id };
    },

    /** Job handler: builds the PDF (once), then mails it (once); the runner retries failures. */
    async runBuild(payload: Record<string, unknown>, job: JobRow): Promise<Record<string, unknown>> {
      const id = Number(payload.reportId);
      let row = await repo.findReport(id, null);
      if (!row) return { skipped: 'deleted' };
      try {
        if (row.status !== 'ready') row = await build(row);
        let mailed = false;
        if (row.status === 'ready' && !row.mailedAt && row.emails.length) {
          try {
            mailed = await mailReport(row);
          } catch (err) {
            // shown with the report (`mail_error`) until a retry of the job delivers it; the
            // SMTP detail (hosts, addresses) stays in the job's last_error and the log
            await repo.updateReport(id, { error: REPORT_MAIL_RETRY_MESSAGE });
            throw err;
          }
          if (mailed) await repo.updateReport(id, { mailedAt: new Date(), error: null });
        }
        return { reportId: id, size: row.size, mailed };
      } catch (err) {
        if (job.attempts >= job.maxAttempts && row.status !== 'ready') {
          await repo.updateReport(id, {
            status: 'failed',
            error: err instanceof Error ? err.message : String(err),
          });
        }
        throw err;
      }
    },

    async listSchedules(page: number, pageSize: number, auth: AuthContext) {
      const { rows, total } = await repo.listSchedules(systemScope(auth), page, pageSize);
      return { total, results: await presentSchedules(rows) };
    },

    async createSchedule(body: ReportTaskCreate, auth: AuthContext, ip: string, lang: Language = 'ru') {
      const zone = DEFAULT_REPORT_TIME_ZONE;
      const crontab = checkCrontab(body.period, body.start_time, body.crontab, zone);
      const chosen = await resolveSystems(body.systems, systemScope(auth));
      const emails = [...new Set(body.emails)];
      await checkRecipients(
        db,
        chosen.map((s) => s.id),
        emails,
        lang,
      );
      const row = await repo.insertSchedule({
        name: body.name,
        ownerId: auth.userId,
        systemIds: chosen.map((s) => s.id),
        emails,
        startTime: body.start_time,
        period: body.period,
        crontab,
        timeZone: zone,
        language: await reportLanguage(emails, auth.userId),
        nextRunAt: nextSlot(crontab, zone, body.start_time, new Date()),
      });
      await audit(db, {
        userId: auth.userId,
        action: 'report_task.create',
        objectType: 'report_task',
        objectId: row.id,
        ip,
      });
      return (await presentSchedules([row]))[0]!;
    },

    async updateSchedule(
      id: number,
      body: ReportTaskUpdate,
      auth: AuthContext,
      ip: string,
      lang: Language = 'ru',
    ) {
      const scope = systemScope(auth);
      const row = await repo.findSchedule(id, scope);
      if (!row) throw notFound();
      const period = body.period ?? row.period;
      const startTime = body.start_time ?? row.startTime;
      const timing = body.period !== undefined || body.start_time !== undefined || body.crontab !== undefined;
      const crontab = timing
        ? checkCrontab(period, startTime, body.crontab ?? crontabFromPeriod(period, startTime), row.timeZone)
        : row.crontab;
      const chosen = body.systems ? await resolveSystems(body.systems, scope) : null;
      const emails = body.emails ? [...new Set(body.emails)] : undefined;
      if (chosen || emails) {
        const systemIds = chosen?.map((s) => s.id) ?? row.systemIds;
        await checkRecipients(
          db,
          systemIds.length ? systemIds : await repo.allSystemIds(scope),
          emails ?? row.emails,
          lang,
        );
      }
      const updated = await repo.updateSchedule(id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(chosen ? { systemIds: chosen.map((s) => s.id) } : {}),
        ...(emails ? { emails, language: await reportLanguage(emails, auth.userId) } : {}),
        ...(timing
          ? { period, startTime, crontab, nextRunAt: nextSlot(crontab, row.timeZone, startTime, new Date()) }
          : {}),
      });
      await audit(db, {
        userId: auth.userId,
        action: 'report_task.update',
        objectType: 'report_task',
        objectId: id,
        ip,
        details: { fields: Object.keys(body) },
      });
      return (await presentSchedules([updated]))[0]!;
    },

    async deleteSchedule(id: number, auth: AuthContext, ip: string): Promise<void> {
      const row = await repo.findSchedule(id, systemScope(auth));
      if (!row) throw notFound();
      await repo.deleteSchedule(id);
      await audit(db, {
        userId: auth.userId,
        action: 'report_task.delete',
        objectType: 'report_task',
        objectId: id,
        ip,
      });
    },

    /**
     * Queues the reports of due schedules. Each due row is locked (SKIP LOCKED: another instance
     * takes other rows), its report and build job are inserted and `next_run_at` moves past now in
     * one transaction, so a slot runs once; missed slots collapse into the latest one.
     */
    async tick(now: Date = new Date()): Promise<number> {
      let queued = 0;
      for (;;) {
        const claimed = await db.transaction(async (tx) => {
          // every query of the transaction goes through tx (PGlite has a single connection)
          const txRepo = createReportsRepository(tx);
          const due = await txRepo.claimDueSchedules(tx, now, TICK_BATCH);
          for (const s of due) {
            const slot = latestDueSlot(s.crontab, s.timeZone, s.nextRunAt!, now);
            const next = nextSlot(
              s.crontab,
              s.timeZone,
              s.startTime,
              new Date(Math.max(slot.getTime(), now.getTime())),
            );
            const owner = await ownerScope(s.ownerId, tx);
            let systemIds = s.systemIds;
            if (owner !== null) {
              const allowed = owner === 'none' ? [] : owner;
              systemIds = s.systemIds.length ? s.systemIds.filter((x) => allowed.includes(x)) : allowed;
            } else if (!systemIds.length) systemIds = await txRepo.allSystemIds(null);
            if (systemIds.length) {
              const range = scheduledPeriod(s.period, slot, s.timeZone);
              const chosen = await txRepo.systemsByIds(systemIds);
              const report = await txRepo.insertReport(
                {
                  name: s.name,
                  filename: `${fileSafe(s.name)}_${ymd(range.start, s.timeZone)}_${ymd(range.finish, s.timeZone)}.pdf`,
                  scheduleId: s.id,
                  createdById: s.ownerId,
                  systemIds,
                  systemLabel: chosen.map((c) => c.fullName).join(', '),
                  emails: s.emails,
                  language: s.language,
                  timeZone: s.timeZone,
                  periodStart: range.start,
                  periodFinish: range.finish,
                },
                tx,
              );
              if (report) {
                await tx.insert(jobs).values({ type: REPORT_BUILD_JOB, payload: { reportId: report.id } });
                queued += 1;
              }
            }
            await txRepo.advanceSchedule(tx, s.id, next, slot);
          }
          return due.length;
        });
        if (claimed < TICK_BATCH) return queued;
      }
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
