/** Reports: on demand and scheduled, built and mailed by jobs; and what the demo data uses. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { reportsRoutes } from './reports.routes.ts';
import { REPORT_BUILD_JOB, createReportsService } from './reports.service.ts';

export { buildReportFile } from './report-builder.ts';
export { nextSlot, zonedDate, zonedTimeToUtc } from './report-time.ts';

export const reportsModule: AppModule = async (app, { ctx }) => {
  const { config, jobs } = ctx;
  const reports = createReportsService({
    db: ctx.db,
    config,
    storage: ctx.storage,
    mailer: ctx.mailer,
    jobs,
    attachmentMaxBytes: config.reportAttachmentMaxBytes,
  });
  jobs.handle(REPORT_BUILD_JOB, (payload, job) => reports.runBuild(payload, job));
  // due schedules become build jobs
  jobs.addPoller(() => reports.tick());
  await app.register(reportsRoutes, { prefix: `${API_BASE}/soc`, reports, config });
};
