import type { ReportFile, ReportTask } from '@soc/contracts';
import { API_BASE } from '@soc/contracts';
import type { ReportRow, ScheduleRow } from './reports.repository.ts';

/** Link of a report; its file is at link + `download/` (product §B7). */
export const reportLink = (id: number) => `${API_BASE}/soc/reports/${id}/`;

export function presentReport(row: ReportRow): ReportFile {
  return {
    id: row.id,
    filename: row.filename,
    link: reportLink(row.id),
    created: row.created.toISOString(),
    start: row.periodStart.toISOString(),
    finish: row.periodFinish.toISOString(),
    time_zone: row.timeZone,
    size: row.size,
    system: row.systemLabel,
    mail: !row.emails.length ? 'none' : row.mailedAt ? 'sent' : 'pending',
    mail_error: row.status === 'ready' && !row.mailedAt && row.emails.length ? row.error : null,
  };
}

export function presentSchedule(
  row: ScheduleRow,
  systemsById: Map<number, { isId: string; fullName: string }>,
): ReportTask {
  const chosen = row.systemIds.flatMap((id) => {
    const s = systemsById.get(id);
    return s ? [s] : [];
  });
  return {
    id: row.id,
    name: row.name,
    systems: chosen.map((s) => s.fullName),
    system_keys: chosen.map((s) => s.isId),
    emails: row.emails,
    start_time: row.startTime,
    period: row.period,
    crontab: row.crontab,
    time_zone: row.timeZone,
    next_run: row.nextRunAt?.toISOString() ?? null,
    last_run: row.lastRunAt?.toISOString() ?? null,
  };
}
