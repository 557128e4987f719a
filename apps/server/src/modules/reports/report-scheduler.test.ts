import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_PERIODS, crontabFromPeriod } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import { createMailer } from '../../integrations/mail/mailer.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import { createJobRunner } from '../../jobs/runner.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildSystem } from '../../test/builders.ts';
import { REPORT_BUILD_JOB, createReportsService } from './reports.service.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(async () => {
  await ctx.close();
});

/** An instance of the server's background side: its own job runner and scheduler. */
function instance() {
  const { db } = ctx.database;
  const { config } = ctx;
  const mailer = createMailer({ from: config.mail.from, outboxDir: config.mail.outboxDir });
  const runner = createJobRunner({ db });
  const reports = createReportsService({
    db,
    config,
    storage: new LocalFileStorage(config.filesDir),
    mailer,
    jobs: runner,
    attachmentMaxBytes: config.reportAttachmentMaxBytes,
  });
  runner.handle(REPORT_BUILD_JOB, (payload, job) => reports.runBuild(payload, job));
  runner.addPoller(() => reports.tick());
  return runner;
}

describe('report scheduler', () => {
  it('fires each due schedule exactly once across two concurrently running instances', async () => {
    const { db } = ctx.database;
    // the recipients are no users of the system: an administrator allowed their domain
    const system = await buildSystem(ctx, { mailDomains: ['example.com'] });
    const analyst = await buildAnalyst(ctx);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const startTime = `2026-01-0${i + 1}T0${i}:15`;
      const period = SCHEDULE_PERIODS[i % SCHEDULE_PERIODS.length]!;
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`INSERT INTO report_schedules (name, owner_id, system_ids, emails, start_time, period, crontab, next_run_at)
            VALUES (${`Schedule ${i}`}, ${analyst.id}, ARRAY[${system.id}]::int[], ARRAY[${`r${i}@example.com`}]::text[],
                    ${startTime}, ${period}, ${JSON.stringify(crontabFromPeriod(period, startTime))}::jsonb,
                    now() - interval '1 minute')
            RETURNING id`,
      );
      ids.push(row!.id);
    }
    const a = instance();
    const b = instance();
    await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    await Promise.all([a.runDue(), b.runDue()]);

    const made = await queryRows<{ schedule_id: number; n: number; ready: number }>(
      db,
      sql`SELECT schedule_id, count(*)::int AS n, count(*) FILTER (WHERE status = 'ready')::int AS ready
            FROM reports WHERE schedule_id IN (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )}) GROUP BY schedule_id ORDER BY schedule_id`,
    );
    expect(made).toEqual(ids.map((id) => ({ schedule_id: id, n: 1, ready: 1 })));
    const [jobs] = await queryRows<{ n: number; runs: number }>(
      db,
      sql`SELECT count(*)::int AS n, coalesce(sum(attempts), 0)::int AS runs FROM jobs WHERE type = ${REPORT_BUILD_JOB} AND status = 'done'`,
    );
    expect(jobs).toEqual({ n: ids.length, runs: ids.length });
    // one e-mail per schedule
    const outbox = await readdir(ctx.config.mail.outboxDir);
    expect(outbox.filter((f) => f.endsWith('.eml'))).toHaveLength(ids.length);
    const next = await queryRows<{ future: boolean }>(
      db,
      sql`SELECT next_run_at > now() AS future FROM report_schedules WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    expect(next.every((r) => r.future)).toBe(true);
  });
});
