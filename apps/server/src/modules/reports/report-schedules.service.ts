import type { Language, ReportTaskCreate, ReportTaskUpdate, SchedulePeriod } from '@soc/contracts';
import { DEFAULT_REPORT_TIME_ZONE, crontabFromPeriod } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { createJobQueueRepository } from '../../jobs/job-queue.repository.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import type { SystemScope } from '../../lib/scope.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { REPORT_BUILD_JOB } from './report-delivery.ts';
import { fileSafe, resolveSystems, ymd } from './report-inputs.ts';
import { checkRecipients } from './report-recipients.ts';
import { isValidCrontab, latestDueSlot, nextSlot, scheduledPeriod } from './report-time.ts';
import type { ReportsRepository, ScheduleRow } from './reports.repository.ts';
import { createReportsRepository } from './reports.repository.ts';
import { presentSchedule } from './reports.presenter.ts';

/** Schedules handled per scheduler transaction. */
const TICK_BATCH = 20;

/** Report tasks (schedules): tenant scope, crontab checks, and the tick that queues their reports. */
export function createReportSchedules(db: Db, repo: ReportsRepository) {
  /** The systems a schedule's owner may still report on (rights are re-read at every run). */
  async function ownerScope(
    ownerId: number | null,
    txRepo: ReportsRepository,
  ): Promise<SystemScope | 'none'> {
    if (ownerId === null) return 'none';
    const owner = await txRepo.account(ownerId);
    if (!owner?.isActive) return 'none';
    if (owner.role !== 'customer') return null;
    return txRepo.userSystemIds(ownerId);
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

  return {
    async listSchedules(page: number, pageSize: number, auth: AuthContext) {
      const { rows, total } = await repo.listSchedules(systemScope(auth), page, pageSize);
      return { total, results: await presentSchedules(rows) };
    },

    async createSchedule(body: ReportTaskCreate, auth: AuthContext, ip: string, lang: Language) {
      const zone = DEFAULT_REPORT_TIME_ZONE;
      const crontab = checkCrontab(body.period, body.start_time, body.crontab, zone);
      const chosen = await resolveSystems(repo, body.systems, systemScope(auth));
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
        // the report is written in the language the person scheduling it reads the portal in
        language: lang,
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

    async updateSchedule(id: number, body: ReportTaskUpdate, auth: AuthContext, ip: string, lang: Language) {
      const scope = systemScope(auth);
      const row = await repo.findSchedule(id, scope);
      if (!row) throw notFound();
      const period = body.period ?? row.period;
      const startTime = body.start_time ?? row.startTime;
      const timing = body.period !== undefined || body.start_time !== undefined || body.crontab !== undefined;
      const crontab = timing
        ? checkCrontab(period, startTime, body.crontab ?? crontabFromPeriod(period, startTime), row.timeZone)
        : row.crontab;
      const chosen = body.systems ? await resolveSystems(repo, body.systems, scope) : null;
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
        ...(emails ? { emails } : {}),
        // the owner's edit brings their current language; another person's edit keeps it
        ...(row.ownerId === auth.userId ? { language: lang } : {}),
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
          const due = await txRepo.claimDueSchedules(now, TICK_BATCH);
          for (const s of due) {
            const slot = latestDueSlot(s.crontab, s.timeZone, s.nextRunAt!, now);
            const next = nextSlot(
              s.crontab,
              s.timeZone,
              s.startTime,
              new Date(Math.max(slot.getTime(), now.getTime())),
            );
            const owner = await ownerScope(s.ownerId, txRepo);
            let systemIds = s.systemIds;
            if (owner !== null) {
              const allowed = owner === 'none' ? [] : owner;
              systemIds = s.systemIds.length ? s.systemIds.filter((x) => allowed.includes(x)) : allowed;
            } else if (!systemIds.length) systemIds = await txRepo.allSystemIds(null);
            if (systemIds.length) {
              const range = scheduledPeriod(s.period, slot, s.timeZone);
              const chosen = await txRepo.systemsByIds(systemIds);
              const report = await txRepo.insertReport({
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
              });
              if (report) {
                await createJobQueueRepository(tx).queueJob(REPORT_BUILD_JOB, { reportId: report.id });
                queued += 1;
              }
            }
            await txRepo.advanceSchedule(s.id, next, slot);
          }
          return due.length;
        });
        if (claimed < TICK_BATCH) return queued;
      }
    },
  };
}
