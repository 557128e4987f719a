import type { Language, ReportCreate, ReportListQuery, ReportRecipientRules } from '@soc/contracts';
import { DEFAULT_REPORT_TIME_ZONE, REPORT_MAX_DAYS, parseDmy } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { REPORT_BUILD_JOB, createReportDelivery } from './report-delivery.ts';
import { fileSafe, resolveSystems, ymd } from './report-inputs.ts';
import { checkRecipients } from './report-recipients.ts';
import { createReportSchedules } from './report-schedules.service.ts';
import { dayRange, zonedDate } from './report-time.ts';
import { createReportsRepository } from './reports.repository.ts';
import { presentReport } from './reports.presenter.ts';

export { REPORT_BUILD_JOB, REPORT_MAIL_RETRY_MESSAGE } from './report-delivery.ts';

export interface ReportsDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  mailer: Mailer;
  jobs: Pick<JobRunner, 'enqueue'>;
  /** Largest report sent as an attachment; larger ones are mailed as a link. */
  attachmentMaxBytes: number;
}

/**
 * Reports and report tasks (issue 11): tenant scope, one-off requests, schedules
 * (report-schedules.service.ts), building and mail (report-delivery.ts).
 */
export function createReportsService({
  db,
  config,
  storage,
  mailer,
  jobs: runner,
  attachmentMaxBytes,
}: ReportsDeps) {
  const repo = createReportsRepository(db);

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
      return { row, stream: await storage.open(row.storageKey) };
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

    /**
     * Who may receive a report of these systems (issue 40 flaw 13): the domains allowed for
     * every one of them; the forms say so, with "users of the chosen systems", before sending.
     */
    async recipientRules(keys: string[], auth: AuthContext): Promise<ReportRecipientRules> {
      const chosen = await resolveSystems(repo, keys, systemScope(auth));
      const rows = await repo.mailDomains(chosen.map((s) => s.id));
      const sets = rows.map((r) => new Set(r.domains.map((d) => d.toLowerCase())));
      const [first, ...rest] = sets;
      const domains = [...(first ?? [])].filter((d) => rest.every((set) => set.has(d))).sort();
      return { domains };
    },

    async createOneOff(body: ReportCreate, auth: AuthContext, ip: string, lang: Language) {
      const scope = systemScope(auth);
      const start = parseDmy(body.start)!;
      const finish = parseDmy(body.finish)!;
      const zone = DEFAULT_REPORT_TIME_ZONE;
      const range = dayRange(start, finish, zone);
      if (range.finish < range.start) throw badRequest({ __all__: [msg('reportInvalidDate')] });
      if (range.finish.getTime() - range.start.getTime() > REPORT_MAX_DAYS * 86_400_000) {
        throw badRequest({ __all__: [msg('reportPeriodTooLong', REPORT_MAX_DAYS)] });
      }
      // the last day may be today (a report of the month so far), never a day still to come
      const today = zonedDate(new Date(), zone);
      if (range.finish > dayRange(today, today, zone).finish) {
        throw badRequest({ __all__: [msg('reportPeriodInFuture')] });
      }
      const chosen = await resolveSystems(repo, body.systems, scope).catch(() => {
        throw badRequest({ __all__: [msg('reportChooseSystems')] });
      });
      const emails = [...new Set(body.emails)];
      await checkRecipients(
        db,
        chosen.map((s) => s.id),
        emails,
        lang,
      );
      const row = await repo.insertReport({
        name: body.name,
        filename: `${fileSafe(body.name)}_${ymd(range.start, zone)}_${ymd(range.finish, zone)}.pdf`,
        createdById: auth.userId,
        systemIds: chosen.map((s) => s.id),
        systemLabel: chosen.map((s) => s.fullName).join(', '),
        emails,
        // in the requester's language (Accept-Language or ?language= of the request)
        language: lang,
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

    ...createReportDelivery(repo, { db, config, storage, mailer, attachmentMaxBytes }),
    ...createReportSchedules(db, repo),
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
