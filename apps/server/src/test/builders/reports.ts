import { DEFAULT_REPORT_TIME_ZONE, crontabFromPeriod } from '@soc/contracts';
import { reportSchedules, reports } from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import { buildReportFile } from '../../modules/reports/index.ts';
import type { TestContext } from '../harness.ts';
import { insertRow, tag } from './row.ts';

/** A ready report of `systemIds` over October 2026, its PDF stored in `storage` (default: the app's files directory). */
export async function buildReport(
  ctx: TestContext,
  systemIds: number[],
  fields: Partial<typeof reports.$inferInsert> = {},
  storage: FileStorage = new LocalFileStorage(ctx.config.filesDir),
): Promise<{ id: number; filename: string }> {
  const spec = {
    name: `Test report ${tag()}`,
    language: 'en' as const,
    timeZone: DEFAULT_REPORT_TIME_ZONE,
    periodStart: new Date('2026-10-01T00:00:00Z'),
    periodFinish: new Date('2026-10-31T23:59:59Z'),
    systemIds,
  };
  const stored = await buildReportFile(ctx.database.db, storage, spec, 'SOC Portal');
  return insertRow(
    ctx,
    reports,
    {
      ...spec,
      filename: `${spec.name.replace(/\s+/g, '_')}.pdf`,
      status: 'ready',
      storageKey: stored.key,
      size: stored.size,
      ...fields,
    },
    { id: reports.id, filename: reports.filename },
  );
}

/** A weekly report schedule of `systemIds` from 2026-12-01 09:00 that has not run yet. */
export async function buildReportSchedule(
  ctx: TestContext,
  systemIds: number[],
  fields: Partial<typeof reportSchedules.$inferInsert> = {},
): Promise<{ id: number; name: string }> {
  const startTime = '2026-12-01T09:00';
  return insertRow(
    ctx,
    reportSchedules,
    {
      name: `Test schedule ${tag()}`,
      systemIds,
      startTime,
      period: 'everyWeek',
      crontab: crontabFromPeriod('everyWeek', startTime),
      ...fields,
    },
    { id: reportSchedules.id, name: reportSchedules.name },
  );
}
