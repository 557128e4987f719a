import { and, asc, eq } from 'drizzle-orm';
import type { SchedulePeriod } from '@soc/contracts';
import { DEFAULT_REPORT_TIME_ZONE, crontabFromPeriod } from '@soc/contracts';
import type { Db } from '../db/client.ts';
import { reportSchedules, reports, systems, userSystems, users } from '../db/schema/index.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import { msg } from '../lib/messages.ts';
import { buildReportFile, nextSlot, zonedDate, zonedTimeToUtc } from '../modules/reports/index.ts';
import type { Rng } from './rng.ts';

const DAY = 86_400_000;
/** Systems that get demo reports and schedules (a handful keeps the demo start fast). */
const SYSTEMS = 3;

export interface DemoReportsOptions {
  rng: Rng;
  now: Date;
  /** Without storage no report files are built, only schedules are created. */
  storage?: FileStorage;
  portalName?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A few generated reports (real PDFs of the demo incidents of the last 30 days) and
 * schedules for the first systems, owned by a customer of each. Schedules wait for their next
 * slot after the real clock, so nothing fires the moment the demo starts.
 */
export async function generateDemoReports(
  db: Db,
  options: DemoReportsOptions,
): Promise<{ reports: number; schedules: number }> {
  const { rng, now } = options;
  const zone = DEFAULT_REPORT_TIME_ZONE;
  const chosen = await db.select().from(systems).orderBy(asc(systems.id)).limit(SYSTEMS);
  let reportCount = 0;
  let scheduleCount = 0;
  for (const system of chosen) {
    const [owner] = await db
      .select({ id: users.id, email: users.email, locale: users.locale })
      .from(userSystems)
      .innerJoin(users, eq(users.id, userSystems.userId))
      .where(and(eq(userSystems.systemId, system.id), eq(users.role, 'customer')))
      .orderBy(asc(users.id))
      .limit(1);
    const language = owner?.locale ?? 'ru';
    const emails = owner?.email ? [owner.email] : [];
    const today = zonedDate(now, zone);
    // one file per system: building PDFs is the slow part of loading the demo
    const periods = [{ name: msg('demoMonthlyReportFile').in(language), days: 30 }];
    if (options.storage) {
      for (const p of periods) {
        const periodStart = zonedTimeToUtc({ ...today, day: today.day - p.days }, zone);
        const periodFinish = new Date(zonedTimeToUtc(today, zone).getTime() - 1);
        const spec = {
          name: p.name,
          language,
          timeZone: zone,
          periodStart,
          periodFinish,
          systemIds: [system.id],
        };
        const stored = await buildReportFile(db, options.storage, spec, options.portalName ?? 'SOC Portal');
        const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(d);
        await db.insert(reports).values({
          ...spec,
          filename: `${p.name.replace(/\s+/g, '_')}_${system.isId}_${day(periodStart)}_${day(periodFinish)}.pdf`,
          status: 'ready',
          createdById: owner?.id ?? null,
          systemLabel: system.fullName,
          emails,
          storageKey: stored.key,
          size: stored.size,
          mailedAt: now,
          created: new Date(now.getTime() - rng.int(1, 12) * 3600_000),
        });
        reportCount += 1;
      }
    }
    const schedules: { period: SchedulePeriod; name: string }[] = [
      { period: 'everyWeek', name: msg('demoWeeklySchedule').in(language) },
      { period: 'onceAMonth', name: msg('demoMonthlySchedule').in(language) },
    ];
    for (const s of schedules) {
      const started = zonedDate(new Date(now.getTime() - rng.int(10, 60) * DAY), zone);
      const startTime = `${started.year}-${pad(started.month)}-${pad(started.day)}T${pad(rng.int(7, 10))}:00`;
      const crontab = crontabFromPeriod(s.period, startTime);
      await db.insert(reportSchedules).values({
        name: s.name,
        ownerId: owner?.id ?? null,
        systemIds: [system.id],
        emails,
        startTime,
        period: s.period,
        crontab,
        timeZone: zone,
        language,
        // the next slot after the real clock: a demo loaded with a past `now` does not fire at once
        nextRunAt: nextSlot(crontab, zone, startTime, new Date(Math.max(now.getTime(), Date.now()))),
      });
      scheduleCount += 1;
    }
  }
  return { reports: reportCount, schedules: scheduleCount };
}
