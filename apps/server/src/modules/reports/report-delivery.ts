import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { PRIVATE_DIR_MODE } from '../../core/private-files.ts';
import type { JobRow } from '../../jobs/runner.ts';
import { msg } from '../../lib/messages.ts';
import { buildReportFile } from './report-builder.ts';
import { ymd } from './report-inputs.ts';
import { refusedRecipients } from './report-recipients.ts';
import type { ReportRow, ReportsRepository } from './reports.repository.ts';

export const REPORT_BUILD_JOB = 'reports.build';
/** What a report shows while its e-mail waits for a retry. */
export const REPORT_MAIL_RETRY_MESSAGE =
  'The e-mail could not be delivered yet; it is retried automatically.';

export interface ReportDeliveryDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  mailer: Mailer;
  /** Largest report sent as an attachment; larger ones are mailed as a link. */
  attachmentMaxBytes: number;
}

/** The build job of a report: its PDF, then its e-mail to the recipients. */
export function createReportDelivery(
  repo: ReportsRepository,
  { db, config, storage, mailer, attachmentMaxBytes }: ReportDeliveryDeps,
) {
  async function mailReport(row: ReportRow): Promise<boolean> {
    if (!row.emails.length || !row.storageKey) return false;
    // checked again when sending: a schedule runs long after its addresses were typed, and the
    // people of a system or its allowed domains may have changed since
    const refused = await refusedRecipients(db, row.systemIds, row.emails);
    if (refused.length === row.emails.length) return false;
    const period = `${ymd(row.periodStart, row.timeZone)} — ${ymd(row.periodFinish, row.timeZone)}`;
    const origin = (
      config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`
    ).replace(/\/$/, '');
    const page = `${origin}/reports/reportsList`;
    const fits = row.size <= attachmentMaxBytes;
    const subject = msg('reportMailSubject', row.name).in(row.language);
    const text = (
      fits
        ? msg('reportMailAttached', row.name, period, page)
        : msg('reportMailTooLarge', row.name, period, row.size, page)
    ).in(row.language);
    const dir = path.join(tmpdir(), `soc-report-${randomUUID()}`);
    // the report's files are a customer's data: not readable by other accounts of the host
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      const attachments = [];
      if (fits) {
        const file = path.join(dir, 'report.pdf');
        await pipeline(await storage.open(row.storageKey), createWriteStream(file));
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
  };
}
