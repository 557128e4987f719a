import type { Language } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { FileStorage, StoredObject } from '../../integrations/storage/file-storage.ts';
import { createReportDataRepository } from './report-data.repository.ts';
import { reportPdf } from './report-pdf.ts';
import { createReportsRepository } from './reports.repository.ts';

/** Largest report file kept. */
const REPORT_FILE_MAX_BYTES = 200 * 1024 * 1024;
/** Incidents listed in one report; the rest are counted in the totals. */
export const REPORT_LIST_LIMIT = 20_000;

export interface ReportSpec {
  name: string;
  language: Language;
  timeZone: string;
  periodStart: Date;
  periodFinish: Date;
  systemIds: number[];
}

/**
 * Computes a report and streams its PDF into file storage (`reports/…`). The incident list is
 * read in keyset batches while the PDF is written, so memory stays flat whatever the period.
 */
export async function buildReportFile(
  db: Db,
  storage: FileStorage,
  spec: ReportSpec,
  portalName: string,
): Promise<StoredObject> {
  const systems = await createReportsRepository(db).systemsByIds(spec.systemIds);
  const data = createReportDataRepository(db);
  const summary = await data.reportSummary(
    spec.systemIds,
    spec.periodStart,
    spec.periodFinish,
    spec.language,
  );
  const { doc, done } = reportPdf({
    name: spec.name,
    lang: spec.language,
    timeZone: spec.timeZone,
    start: spec.periodStart,
    finish: spec.periodFinish,
    systems: systems.map((s) => `${s.isId} ${s.fullName}`),
    summary,
    incidents: data.reportIncidents(spec.systemIds, spec.periodStart, spec.periodFinish, REPORT_LIST_LIMIT),
    portalName,
  });
  const [put, written] = await Promise.allSettled([storage.put('reports', doc, REPORT_FILE_MAX_BYTES), done]);
  if (written.status === 'rejected') {
    // the document was cut short: keep nothing
    if (put.status === 'fulfilled') await storage.remove(put.value.key);
    throw written.reason;
  }
  if (put.status === 'rejected') throw put.reason;
  return put.value;
}
